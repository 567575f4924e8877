import { findOrganizationById, updateOrganization } from '../../db/repos/organizations.js';
import type { Task, TaskKind } from '../catalog/types.js';
import type { Gateway } from '../gateway.js';
import { usdToMicros } from '../run/request.js';

/**
 * Which runs of an organization need their end user's approval (docs/approvals.md): a run is covered when its
 * task's kind is listed or its id matches a pattern and, with `over_usd`, its quoted price is above it. The
 * default, empty, covers nothing.
 */
export interface ApprovalPolicy {
  kinds: TaskKind[];
  tasks: string[];
  over_usd: number | null;
}

/** The policy as stored (JSON text on the organization, `{}` until one is set), members filled in. */
export function decodeApprovalPolicy(text: string): ApprovalPolicy {
  const stored = JSON.parse(text) as Partial<ApprovalPolicy>;
  return { kinds: stored.kinds ?? [], tasks: stored.tasks ?? [], over_usd: stored.over_usd ?? null };
}

const patternCache = new Map<string, RegExp>();

function patternOf(pattern: string): RegExp {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    compiled = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\-]/g, '\\$&')).join('.*')}$`);
    // Patterns are few per organization; the cap only keeps a long-lived process from growing without end.
    if (patternCache.size > 10_000) patternCache.clear();
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

/** Whether a run of `task` quoted at `priceMicros` needs approval under `policy`. */
export function policyCovers(policy: ApprovalPolicy, task: Task, priceMicros: number): boolean {
  const named = policy.kinds.includes(task.kind) || policy.tasks.some((pattern) => patternOf(pattern).test(task.id));
  return named && (policy.over_usd === null || priceMicros > usdToMicros(String(policy.over_usd)));
}

export async function readApprovalPolicy(gateway: Pick<Gateway, 'db'>, organizationId: string): Promise<ApprovalPolicy> {
  const organization = await findOrganizationById(gateway.db, organizationId);
  return decodeApprovalPolicy(organization!.approval_policy);
}

/** Replaces the policy; members left out are empty. */
export async function setApprovalPolicy(gateway: Pick<Gateway, 'db'>, organizationId: string, policy: Partial<ApprovalPolicy>): Promise<ApprovalPolicy> {
  const replaced: ApprovalPolicy = { kinds: policy.kinds ?? [], tasks: policy.tasks ?? [], over_usd: policy.over_usd ?? null };
  await updateOrganization(gateway.db, organizationId, { approval_policy: JSON.stringify(replaced) });
  return replaced;
}
