import type { Command } from 'commander';
import { listApprovals, type Approval } from '../../../domain/approvals/approvals.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(options: CommonOptions, command: Command): Promise<void> {
  const approvals = await withOrganization(command, options, async (gateway, org) => {
    const all: Approval[] = [];
    let cursor: string | undefined;
    do {
      const page = await listApprovals(gateway, org.id, cursor);
      all.push(...page.approvals);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return all;
  });
  print(command, !!options.json, { approvals, next_cursor: null }, () => approvals);
}
