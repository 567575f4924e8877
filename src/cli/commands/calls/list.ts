import type { Command } from 'commander';
import { listCalls } from '../../../domain/audit/calls.js';
import { callCells } from '../../ui/cells.js';
import { withOrganization } from '../../context.js';
import { formatTable, print } from '../../output.js';
import { callQueryOf, type FilterOptions } from './filters.js';

export async function run(options: FilterOptions & { cursor?: string }, command: Command): Promise<void> {
  const { cursor, ...filters } = callQueryOf(command, options);
  const page = await withOrganization(command, options, (gateway, org) => listCalls(gateway, org.id, filters, cursor));
  print(command, !!options.json, page, () => {
    const rows = page.calls.map((call) => {
      const { charged, latency } = callCells(call);
      return {
        id: call.id,
        created_at: call.created_at,
        task: call.task,
        principal: call.principal,
        identity: call.identity,
        outcome: call.outcome,
        status: call.http_status,
        error: call.error_code,
        approval: call.approval_id,
        charged,
        latency,
      };
    });
    const more = page.next_cursor ? `\n\nmore: gateway calls list --cursor ${page.next_cursor}` : '';
    return `${formatTable(rows)}${more}`;
  });
}
