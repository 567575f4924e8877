import { Command } from 'commander';
import { TASK_KINDS } from '../../../domain/catalog/types.js';
import { load } from '../../invocation.js';
import { orgOption } from '../../options.js';

const repeated = (value: string, earlier: string[]) => [...earlier, value];

export const approvals = () =>
  new Command('approvals')
    .description("the runs an organization's end users approve first, and the approvals asked for (docs/approvals.md)")
    .addCommand(
      new Command('policy')
        .description('show the approval policy, or with flags replace it (flags left out are empty)')
        .option('--kind <kind>', `a task kind whose runs need approval (${TASK_KINDS.join(', ')}); repeatable`, repeated, [])
        .option('--task <pattern>', 'a task id pattern whose runs need approval, * for any characters (stripe.refunds.*); repeatable', repeated, [])
        .option('--over <usd>', 'only runs quoted above this USD price need approval')
        .option('--clear', 'no run needs approval')
        .addOption(orgOption())
        .option('--json', 'print the policy {kinds, tasks, over_usd}')
        .action(load(() => import('./policy.js'))),
    )
    .addCommand(
      new Command('list')
        .description('list the approvals asked for, newest first')
        .addOption(orgOption())
        .option('--json', 'print {approvals, next_cursor}: every page is fetched, so next_cursor is always null')
        .action(load(() => import('./list.js'))),
    );
