import { createHash } from 'node:crypto';
import {
  decideApproval,
  findApproval,
  findApprovalById,
  findLatestFor,
  insertApproval,
  pageApprovals,
  useApproval,
  type ApprovalRow,
} from '../../db/repos/approvals.js';
import { findOrganizationById } from '../../db/repos/organizations.js';
import { captureSide } from '../audit/captured.js';
import type { Caller } from '../callers.js';
import type { Task } from '../catalog/types.js';
import { GatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { newId } from '../ids.js';
import { canonicalJson } from '../idempotency.js';
import { pageQuery, toPage } from '../paging.js';
import { isUserPrincipal } from '../principals.js';
import { microsToUsd, type RunRequest } from '../run/request.js';
import { isoTime } from '../time.js';
import { emitApprovalDecided } from '../webhooks/events.js';
import { policyCovers } from './policy.js';

/**
 * Approvals (docs/approvals.md): a run the organization's policy covers, made as an end user, waits for that
 * user's yes at a hosted page. An approval is bound to the task, the principal, the routing headers and the
 * SHA-256 of the canonical input as it will be sent; it is used once and lives approvals.ttl_s. Only the page
 * decides: nothing here is reachable with a key or a token.
 */

/** The Approval record (GET /v1/approvals). */
export interface Approval {
  id: string;
  task_id: string;
  principal: string;
  status: ApprovalRow['status'];
  price_usd: number;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  used_at: string | null;
}

export function presentApproval(row: ApprovalRow): Approval {
  return {
    id: row.id,
    task_id: row.task_id,
    principal: row.principal,
    status: row.status,
    price_usd: microsToUsd(Number(row.price_micros)),
    created_at: isoTime(Number(row.created_at)),
    expires_at: isoTime(Number(row.expires_at)),
    decided_at: row.decided_at === null ? null : isoTime(Number(row.decided_at)),
    used_at: row.used_at === null ? null : isoTime(Number(row.used_at)),
  };
}

const LINK_PURPOSE = 'approval-link:v1:';
const FORM_PURPOSE = 'approval-form:v1:';

/** The page link: the approval id and its MAC, so the id alone (which the audit shows) opens nothing. */
function approvalUrl(gateway: Pick<Gateway, 'config' | 'keyring'>, id: string): string {
  return `${gateway.config.server.public_url}/v1/hosted/approvals/${id}.${gateway.keyring.sign(LINK_PURPOSE + id)}`;
}

/** What a run the policy covers sends the caller: the approval to ask the user for. */
export interface AskedApproval {
  approval_id: string;
  approval_url: string;
  expires_at: string;
}

function asked(gateway: Pick<Gateway, 'config' | 'keyring'>, row: ApprovalRow): AskedApproval {
  return { approval_id: row.id, approval_url: approvalUrl(gateway, row.id), expires_at: isoTime(Number(row.expires_at)) };
}

/** A run as the approval check sees it, once its credentials are resolved. */
export interface RunToApprove {
  caller: Caller;
  request: RunRequest;
  task: Task;
  principal: string;
  /** The input as it will be sent (defaults filled in). */
  input: Record<string, unknown>;
  /** The quoted price of the first route. */
  priceMicros: number;
  /** Credentials the routes would send, never shown on the page. */
  secrets: string[];
  /** Called before the check reads or writes an approval, once the policy covers the run (the run's rate-limit count). */
  beforeWrite(): Promise<unknown>;
}

/** The outcome of the check: run (under this approval, or none needed), or ask the user first. */
export type ApprovalCheck = { approvalId: string | null } | { ask: AskedApproval };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The routing headers an approval is bound to; the svc-credential only as a keyed MAC, as idempotency keeps it. */
function routingDigest(gateway: Pick<Gateway, 'keyring'>, request: RunRequest): string {
  const { connectionId, account, credential, maxCost, fallback, order, only, sort, zeroRetention } = request;
  return sha256(
    canonicalJson({
      connectionId, account, maxCost, fallback, order, only, sort, zeroRetention,
      credential: credential === undefined ? null : gateway.keyring.sign(`svc-credential:${credential}`),
    }),
  );
}

/** Input members whose schema marks them secret (writeOnly, or a password) are shown masked, like credentials. */
function maskedInput(task: Task, input: Record<string, unknown>): Record<string, unknown> {
  const properties = (task.input.properties ?? {}) as Record<string, { writeOnly?: boolean; format?: string }>;
  return Object.fromEntries(
    Object.entries(input).map(([name, value]) => {
      const schema = properties[name];
      return [name, schema && (schema.writeOnly === true || schema.format === 'password') ? '[redacted]' : value];
    }),
  );
}

/** 403 approval_required: what the caller hands its user, and how to run it afterwards. */
export function approvalRequired(task: Task, ask: AskedApproval): GatewayError {
  return new GatewayError(
    'approval_required',
    `${task.id} needs the end user's approval: give them approval_url, then send the same run again with svc-approval: ${ask.approval_id}`,
    { ...ask },
  );
}

const expired = (detail: string) => new GatewayError('approval_expired', detail);

/**
 * The one approval step of a run (src/domain/run/run.ts), after its credentials are resolved and before
 * anything is recorded or sent. Runs as the organization are never covered; a run the policy does not cover
 * needs nothing. A covered run names its approval with `svc-approval` (an MCP retry may leave it out: the
 * newest live approval asked for exactly this run answers), or is asked to get one.
 */
export async function checkApproval(gateway: Pick<Gateway, 'config' | 'db' | 'keyring'>, run: RunToApprove, now = Date.now()): Promise<ApprovalCheck> {
  const { caller, request, task, principal } = run;
  if (!isUserPrincipal(principal) || !policyCovers(caller.approvalPolicy, task, run.priceMicros)) return { approvalId: null };
  await run.beforeWrite();
  const binding = {
    organization_id: caller.organization.id,
    principal,
    task_id: task.id,
    input_sha256: sha256(canonicalJson(run.input)),
    routing_sha256: routingDigest(gateway, request),
  };
  if (request.approvalId !== undefined) {
    const named = await findApproval(gateway.db, caller.organization.id, request.approvalId);
    if (!named) throw new GatewayError('approval_mismatch', `svc-approval names no approval of this organization (${request.approvalId})`);
    return { approvalId: await useNamed(gateway, named, binding, request, now) };
  }
  const latest = request.approvalByRetry ? await findLatestFor(gateway.db, binding, now) : null;
  if (latest?.status === 'approved' && (await useApproval(gateway.db, latest.id, request.idempotencyKey ?? null, now))) return { approvalId: latest.id };
  if (latest?.status === 'declined') throw new GatewayError('approval_declined', `the user declined this run (approval ${latest.id})`, { approval_id: latest.id });
  if (latest?.status === 'pending') return { ask: asked(gateway, latest) };
  const row: ApprovalRow = {
    id: newId('apr', now),
    ...binding,
    shown_input: captureSide(maskedInput(task, run.input), run.secrets, gateway.config.limits.max_capture_bytes).text,
    price_micros: run.priceMicros,
    token_id: caller.credentialId,
    status: 'pending',
    created_at: now,
    expires_at: now + gateway.config.approvals.ttl_s * 1000,
    decided_at: null,
    used_at: null,
    used_key: null,
  };
  await insertApproval(gateway.db, row);
  return { ask: asked(gateway, row) };
}

/** A run naming its approval: the same run, approved, live and unused; it is used by this run alone. */
async function useNamed(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring'>,
  named: ApprovalRow,
  binding: Pick<ApprovalRow, 'principal' | 'task_id' | 'input_sha256' | 'routing_sha256'>,
  request: RunRequest,
  now: number,
): Promise<string> {
  const differs = (['task_id', 'principal', 'input_sha256', 'routing_sha256'] as const).filter((member) => named[member] !== binding[member]);
  if (differs.length) {
    const what = differs.map((member) => ({ task_id: 'task', principal: 'principal', input_sha256: 'input', routing_sha256: 'routing headers' })[member]);
    throw new GatewayError('approval_mismatch', `approval ${named.id} was given for another run: its ${what.join(', ')} differ`, { approval_id: named.id });
  }
  if (named.status === 'declined') throw new GatewayError('approval_declined', `the user declined this run (approval ${named.id})`, { approval_id: named.id });
  // A repeat under the idempotency key that used it goes on, and idempotency answers it with the first answer.
  if (named.used_at !== null && request.idempotencyKey !== undefined && named.used_key === request.idempotencyKey) return named.id;
  if (named.used_at !== null) throw expired(`approval ${named.id} was used already; an approval runs one call`);
  if (Number(named.expires_at) <= now) throw expired(`approval ${named.id} expired at ${isoTime(Number(named.expires_at))}`);
  if (named.status === 'pending') {
    throw new GatewayError('approval_required', `the user has not decided on approval ${named.id} yet: give them approval_url`, { ...asked(gateway, named) });
  }
  if (!(await useApproval(gateway.db, named.id, request.idempotencyKey ?? null, now))) throw expired(`approval ${named.id} was used already; an approval runs one call`);
  return named.id;
}

/** GET /v1/approvals and `gateway approvals list`: an organization's approvals, newest first. */
export async function listApprovals(gateway: Pick<Gateway, 'db'>, organizationId: string, cursor?: string): Promise<{ approvals: Approval[]; next_cursor: string | null }> {
  const page = toPage(await pageApprovals(gateway.db, organizationId, pageQuery(cursor)), (row) => row.id);
  return { approvals: page.items.map(presentApproval), next_cursor: page.next_cursor };
}

/** What the approval page shows. */
export interface ApprovalView {
  approval: ApprovalRow;
  organizationName: string;
  task: { id: string; title: string; description: string };
  /** The input as it will be sent, credentials masked, pretty-printed (or the start of it past the capture limit). */
  input: string;
  expired: boolean;
}

const invalidLink = () =>
  new GatewayError('invalid_token', 'This approval link is not valid. Ask the app that sent you here for a new one.');

/** The approval a page link names; a tampered or malformed link, or one of a suspended organization, is invalid_token. */
export async function openApproval(gateway: Pick<Gateway, 'db' | 'keyring' | 'catalog'>, token: string, now = Date.now()): Promise<ApprovalView> {
  const [id, signature, extra] = token.split('.');
  if (!id || !signature || extra !== undefined || !gateway.keyring.verify(LINK_PURPOSE + id, signature)) throw invalidLink();
  const approval = await findApprovalById(gateway.db, id);
  const organization = approval && (await findOrganizationById(gateway.db, approval.organization_id));
  if (!approval || !organization || organization.status !== 'active') throw invalidLink();
  const task = gateway.catalog.tasks.get(approval.task_id);
  const stored = JSON.parse(approval.shown_input) as unknown;
  return {
    approval,
    organizationName: organization.display_name,
    task: { id: approval.task_id, title: task?.title ?? approval.task_id, description: task?.description ?? '' },
    // A string is the start of an input longer than limits.max_capture_bytes (an input is always an object).
    input: typeof stored === 'string' ? stored : JSON.stringify(stored, null, 2),
    expired: Number(approval.expires_at) <= now,
  };
}

/**
 * The anti-forgery value the page's form carries: bound to the approval and to a random value the page keeps
 * in the browser's cookie, so neither another site nor someone holding only the link can post a decision
 * for a browser that has not shown the page.
 */
export function approvalFormToken(gateway: Pick<Gateway, 'keyring'>, approvalId: string, browserValue: string): string {
  return gateway.keyring.sign(`${FORM_PURPOSE}${approvalId}:${browserValue}`);
}

/**
 * The user's decision, from the page's form: recorded with its `approval.decided` event in one transaction,
 * once (a second decision, or one after the expiry, is approval_expired).
 */
export async function decideOnPage(
  gateway: Pick<Gateway, 'db' | 'keyring'>,
  view: ApprovalView,
  form: { browserValue: string | undefined; formToken: string | undefined; decision: 'approve' | 'decline' },
  now = Date.now(),
): Promise<void> {
  const { approval } = view;
  if (!form.browserValue || !form.formToken || !gateway.keyring.verify(`${FORM_PURPOSE}${approval.id}:${form.browserValue}`, form.formToken)) {
    throw new GatewayError('untrusted_origin', 'This decision did not come from the approval page in this browser, so it was not accepted. Open the link again and use its buttons.');
  }
  const status = form.decision === 'approve' ? 'approved' : 'declined';
  await gateway.db.transaction(async (t) => {
    if (!(await decideApproval(t, approval.id, status, now))) throw expired('This run was decided already, or its approval has expired.');
    await emitApprovalDecided(t, approval.organization_id, { approval_id: approval.id, principal: approval.principal, task_id: approval.task_id, decision: status });
  });
}
