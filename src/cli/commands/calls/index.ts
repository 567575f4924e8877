import { Command, InvalidArgumentError } from 'commander';
import { CALL_OUTCOMES } from '../../../domain/audit/outcomes.js';
import { load } from '../../invocation.js';
import { orgOption } from '../../options.js';

/** The filters of GET /v1/calls as options of `calls list` and `calls tail` (checked with the API's limits when the command runs). */
function withCallFilters(command: Command): Command {
  return command
    .option('--task <id>', 'only calls of this task')
    .option('--provider <slug>', 'only calls answered by this provider')
    .option('--principal <principal>', 'only calls acting as this principal (organization or user:<id>)')
    .option('--outcome <outcome>', `only calls with this outcome: ${CALL_OUTCOMES.join(', ')}`)
    .option('--token <id>', 'only calls made with this API key or principal-bound token id')
    .option('--connection <id>', 'only calls run on this connection')
    .option('--tag <tag>', 'only calls sent with this svc-tag');
}

function milliseconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 20 || Number(value) > 60000) throw new InvalidArgumentError('must be 20 to 60000 milliseconds');
  return Number(value);
}

export const calls = () =>
  new Command('calls')
    .description('the audit trail of runs: list calls, or follow them live (docs/terminal-ui.md)')
    .addCommand(
      withCallFilters(new Command('list'))
        .description('list calls, newest first, 50 a page (the same list GET /v1/calls answers)')
        .option('--cursor <cursor>', 'the next_cursor of the previous page')
        .addOption(orgOption())
        .option('--json', 'print one JSON document {calls, next_cursor}')
        .action(load(() => import('./list.js'))),
    )
    .addCommand(
      withCallFilters(new Command('tail'))
        .description('follow calls as they happen: a live view on a terminal, else (or with --json) one JSON call per line')
        .option('--interval <ms>', 'how often to look for new calls', milliseconds, 250)
        .addOption(orgOption())
        .option('--json', 'one JSON call per line as each call finishes, instead of the live view')
        .action(load(() => import('./tail.js'))),
    );
