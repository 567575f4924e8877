import type { Command } from 'commander';
import type { CallFilters } from '../../../domain/audit/calls.js';
import { CALL_OUTCOMES, callQuery } from '../../../domain/contracts/calls.js';
import { checkInput } from '../../arguments.js';

export interface FilterOptions extends CallFilters {
  json?: boolean;
  org?: string;
}

/** The filters of GET /v1/calls as options of `calls list` and `calls tail`; `callQueryOf` checks them with its limits. */
export function withCallFilters(command: Command): Command {
  return command
    .option('--task <id>', 'only calls of this task')
    .option('--provider <slug>', 'only calls answered by this provider')
    .option('--principal <principal>', 'only calls acting as this principal (organization or user:<id>)')
    .option('--outcome <outcome>', `only calls with this outcome: ${CALL_OUTCOMES.join(', ')}`)
    .option('--token <id>', 'only calls made with this API key or principal-bound token id')
    .option('--connection <id>', 'only calls run on this connection')
    .option('--tag <tag>', 'only calls sent with this svc-tag');
}

/** The filters (and the cursor of `calls list`) among a command's parsed options, checked as GET /v1/calls checks its query. */
export function callQueryOf(command: Command, options: FilterOptions & { cursor?: string }): CallFilters & { cursor?: string } {
  const { task, provider, principal, outcome, token, connection, tag, cursor } = options;
  return checkInput(command, callQuery, { task, provider, principal, outcome, token, connection, tag, cursor });
}
