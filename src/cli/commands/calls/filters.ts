import { Option, type Command } from 'commander';
import type { CallFilters } from '../../../domain/audit/calls.js';
import { boundedText, principal } from '../../arguments.js';

export interface FilterOptions extends CallFilters {
  json?: boolean;
  org?: string;
}

/** The filters of GET /v1/calls, with its limits, as options of `calls list` and `calls tail`. */
export function withCallFilters(command: Command): Command {
  return command
    .option('--task <id>', 'only calls of this task', boundedText(100))
    .option('--provider <slug>', 'only calls answered by this provider', boundedText(100))
    .option('--principal <principal>', 'only calls acting as this principal (organization or user:<id>)', principal)
    .addOption(new Option('--outcome <outcome>', 'only calls with this outcome').choices(['hit', 'miss', 'fault', 'pending']))
    .option('--token <id>', 'only calls made with this API key or principal-bound token id', boundedText(100))
    .option('--connection <id>', 'only calls run on this connection', boundedText(100))
    .option('--tag <tag>', 'only calls sent with this svc-tag', boundedText(200));
}

/** The filters among a command's parsed options. */
export function callFilters(options: FilterOptions): CallFilters {
  const { task, provider, principal, outcome, token, connection, tag } = options;
  const filters: CallFilters = { task, provider, principal, outcome, token, connection, tag };
  for (const key of Object.keys(filters) as Array<keyof CallFilters>) if (filters[key] === undefined) delete filters[key];
  return filters;
}
