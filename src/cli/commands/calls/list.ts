import { Command } from 'commander';
import { listCalls } from '../../../domain/audit/calls.js';
import { callCells } from '../../ui/cells.js';
import { orgOption, withOrganization } from '../../context.js';
import { action } from '../../errors.js';
import { formatTable, print } from '../../output.js';
import { callQueryOf, withCallFilters, type FilterOptions } from './filters.js';

export const list = withCallFilters(new Command('list'))
  .description('list calls, newest first, 50 a page (the same list GET /v1/calls answers)')
  .option('--cursor <cursor>', 'the next_cursor of the previous page')
  .addOption(orgOption())
  .option('--json', 'print one JSON document {calls, next_cursor}')
  .action(
    action(async (options: FilterOptions & { cursor?: string }, command: Command) => {
      const { cursor, ...filters } = callQueryOf(command, options);
      const page = await withOrganization(command, options, (gateway, org) => listCalls(gateway, org.id, filters, cursor));
      print(!!options.json, page, () => {
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
            charged,
            latency,
          };
        });
        const more = page.next_cursor ? `\n\nmore: gateway calls list --cursor ${page.next_cursor}` : '';
        return `${formatTable(rows)}${more}`;
      });
    }),
  );
