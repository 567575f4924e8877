import type { Command } from 'commander';
import { readApprovalPolicy, setApprovalPolicy, type ApprovalPolicy } from '../../../domain/approvals/policy.js';
import { approvalPolicy } from '../../../domain/contracts/approvals.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

interface PolicyOptions extends CommonOptions {
  kind: string[];
  task: string[];
  over?: string;
  clear?: boolean;
}

function describe(policy: ApprovalPolicy): string {
  if (!policy.kinds.length && !policy.tasks.length) return 'no run needs approval';
  const named = [...policy.kinds.map((kind) => `${kind} tasks`), ...policy.tasks];
  return `runs of ${named.join(', ')}${policy.over_usd === null ? '' : ` quoted above $${policy.over_usd}`} need the end user's approval`;
}

/** `gateway approvals policy`: with no flag it shows the policy; flags replace it whole, as PUT /v1/approval-policy does. */
export async function run(options: PolicyOptions, command: Command): Promise<void> {
  const replacing = options.kind.length > 0 || options.task.length > 0 || options.over !== undefined;
  if (options.clear && replacing) command.error("error: option '--clear' cannot be used with --kind, --task or --over", { exitCode: 2, code: 'gateway.conflictingOptions' });
  const replacement =
    replacing || options.clear
      ? checkInput(command, approvalPolicy, options.clear ? {} : { kinds: options.kind, tasks: options.task, over_usd: options.over }, { kinds: '--kind', tasks: '--task', over_usd: '--over' })
      : undefined;
  const policy = await withOrganization(command, options, (gateway, org) =>
    replacement ? setApprovalPolicy(gateway, org.id, replacement) : readApprovalPolicy(gateway, org.id),
  );
  print(command, !!options.json, policy, () => describe(policy));
}
