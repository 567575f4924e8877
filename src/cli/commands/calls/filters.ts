import type { Command } from 'commander';
import type { CallFilters } from '../../../domain/audit/calls.js';
import { callQuery } from '../../../domain/contracts/calls.js';
import { checkInput } from '../../arguments.js';

export interface FilterOptions extends CallFilters {
  json?: boolean;
  org?: string;
}

/** The filters (and the cursor of `calls list`) among a command's parsed options, checked as GET /v1/calls checks its query. */
export function callQueryOf(command: Command, options: FilterOptions & { cursor?: string }): CallFilters & { cursor?: string } {
  const { task, provider, principal, outcome, token, connection, tag, cursor } = options;
  return checkInput(command, callQuery, { task, provider, principal, outcome, token, connection, tag, cursor });
}
