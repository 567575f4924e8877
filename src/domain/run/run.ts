import { performance } from 'node:perf_hooks';
import { insertCall, insertCapture, settleCallWithCapture, startCountedCall, type CallRow, type CaptureRow } from '../../db/repos/calls.js';
import type { Caller } from '../callers.js';
import { captureSide } from '../audit/captured.js';
import { checkInputShape, checkTaskInput } from '../catalog/input.js';
import type { Task } from '../catalog/types.js';
import { markNeedsReauth } from '../connections/connections.js';
import { reconnectUrl } from '../connections/oauth.js';
import { GatewayError, invalidInput } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { newId } from '../ids.js';
import { canonicalJson, fingerprint, idempotent } from '../idempotency.js';
import { principalActivityDue, principalActivityRecorded, recordPrincipalActivity } from '../principal-directory.js';
import type { RunCount } from '../rate-limits.js';
import { actingPrincipal, isUserPrincipal } from '../principals.js';
import { approvalRequired, checkApproval } from '../approvals/approvals.js';
import { attempt } from './attempt.js';
import { planRoutes, type Plan } from './credentials.js';
import { microsToUsd, type RunRequest } from './request.js';
import { alternativeRoutes, chooseRoutes, type Route } from './routes.js';

/** Exactly what the receipt carries (docs/run.md). */
export interface Receipt {
  call_id: string;
  identity: string;
  principal: string;
  quoted_usd: number;
  charged_usd: number;
  latency_ms: number;
}

export interface Run {
  output: unknown;
  receipt: Receipt;
}

export interface RunAnswer {
  run: Run;
}

/** The JSON bytes of a run's output, where the run has them already (received, or written for the capture). */
const outputBytes = new WeakMap<Run, Buffer>();

const OUTPUT_OPENING = Buffer.from('{"output":');

/**
 * The JSON of a run's answer, `{output, receipt}`, as its bytes in order: the provider's answer goes out as it
 * came, and any other output is written once per run, for the capture and the caller alike. The pieces are given
 * apart so that a large answer can be sent without joining them, which would copy up to upstream.max_response_bytes.
 */
export function runAnswerJson(run: Run): Buffer[] {
  const output = outputBytes.get(run) ?? Buffer.from(JSON.stringify(run.output ?? null));
  return [OUTPUT_OPENING, output, Buffer.from(`,"receipt":${JSON.stringify(run.receipt)}}`)];
}

/** What one run records about itself as it goes. */
interface CallContext {
  gateway: Gateway;
  caller: Caller;
  principal: string;
  request: RunRequest;
  /** The run's rate-limit count: made with the call's pending row, or before anything else the run writes. */
  count: RunCount;
  input: Record<string, unknown>;
  started: number;
  /** Time spent in upstream attempts so far, in milliseconds: what the gateway's own overhead excludes. */
  upstreamMs: number;
  /** The approval the call runs under, or asks for (docs/approvals.md). */
  approvalId: string | null;
}

function taskToRun(gateway: Pick<Gateway, 'catalog'>, request: RunRequest): Task {
  const task = gateway.catalog.tasks.get(request.taskId);
  if (!task) throw new GatewayError('task_not_found', `no task ${request.taskId} in the catalog`);
  if (task.status === 'retired') throw new GatewayError('task_retired', `task ${task.id} is retired; find another with POST /v1/discover`);
  if (task.status === 'broken') throw new GatewayError('task_broken', `task ${task.id} is marked broken; find another with POST /v1/discover`);
  return task;
}

/**
 * `svc-principal` or the receipt options name the principal (both: they must agree). Account tasks act in
 * an end user's account: they need a user principal, and `organization` does not make them organization tasks.
 */
function runPrincipal(caller: Caller, request: RunRequest, task: Task): string {
  if (request.principal !== undefined && request.receiptPrincipal !== undefined && request.principal !== request.receiptPrincipal) {
    throw invalidInput('svc-principal and receipt_options.principal name different principals', [
      { name: 'payload.receipt_options.principal', reason: 'differs from svc-principal' },
    ]);
  }
  const principal = actingPrincipal(caller, request.principal ?? request.receiptPrincipal);
  if (task.kind === 'account' && !isUserPrincipal(principal)) {
    throw new GatewayError(
      'principal_required',
      `${task.id} acts in an end user's account: name the user with svc-principal or receipt_options.principal (user:<id>)`,
    );
  }
  return principal;
}

function elapsed(ctx: CallContext): number {
  return Math.round(performance.now() - ctx.started);
}

/** An answer to capture: the value, and its JSON bytes. */
interface Answered {
  value: unknown;
  json?: Buffer;
}

/**
 * What a run keeps of its input and output, credentials redacted, each side bounded by limits.max_capture_bytes;
 * null when it asked for zero retention. Built whole before anything is written, so the settlement and the
 * capture are written together or not at all.
 */
function captureOf(ctx: CallContext, callId: string, output: Answered | undefined, secrets: string[], now: number): CaptureRow | null {
  if (ctx.request.zeroRetention) return null;
  const limit = ctx.gateway.config.limits.max_capture_bytes;
  const input = captureSide(ctx.input, secrets, limit);
  const answer = output === undefined ? undefined : captureSide(output.value ?? null, secrets, limit, output.json);
  return {
    call_id: callId,
    organization_id: ctx.caller.organization.id,
    input: input.text,
    output: answer?.text ?? null,
    input_bytes: input.bytes,
    output_bytes: answer?.bytes ?? null,
    truncated: JSON.stringify([...(input.truncated ? ['input'] : []), ...(answer?.truncated ? ['output'] : [])]),
    created_at: now,
  };
}

function callRow(ctx: CallContext, id: string, task: Task, now: number, fields: Partial<CallRow>): CallRow {
  return {
    id,
    organization_id: ctx.caller.organization.id,
    task_id: task.id,
    provider: task.provider,
    principal: ctx.principal,
    token_id: ctx.caller.credentialId,
    connection_id: null,
    identity: null,
    outcome: 'pending',
    http_status: null,
    error_code: null,
    quoted_micros: task.price_micros,
    charged_micros: 0,
    latency_ms: null,
    tag: ctx.request.tag ?? null,
    approval_id: ctx.approvalId,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/**
 * A run that sends nothing upstream is recorded as a miss, charged nothing, and answered with its error:
 * 404 miss when no route could do the job, 403 approval_required when the end user must approve it first.
 */
async function recordMiss(ctx: CallContext, task: Task, error: GatewayError): Promise<never> {
  await ctx.count.count();
  const now = Date.now();
  const id = newId('call', now);
  await insertCall(ctx.gateway.db, callRow(ctx, id, task, now, { outcome: 'miss', http_status: error.status, error_code: error.code, latency_ms: elapsed(ctx) }));
  const captured = captureOf(ctx, id, undefined, [], now);
  if (captured) await insertCapture(ctx.gateway.db, captured);
  ctx.gateway.observer?.runFinished({ provider: task.provider, outcome: 'miss', totalMs: performance.now() - ctx.started, upstreamMs: 0 });
  throw new GatewayError(error.code, error.message, { ...error.extras, call_id: id });
}

async function settle(
  ctx: CallContext,
  callId: string,
  plan: Plan,
  outcome: 'hit' | 'fault',
  status: number,
  errorCode: string | null,
  output: Answered | undefined,
  secrets: string[],
): Promise<number> {
  const now = Date.now();
  const latency = elapsed(ctx);
  // A hit on a connection is its last use, written with the settlement.
  await settleCallWithCapture(ctx.gateway.db, callId, {
    task_id: plan.task.id,
    provider: plan.task.provider,
    connection_id: plan.connection?.id ?? null,
    identity: plan.identity,
    outcome,
    http_status: status,
    error_code: errorCode,
    quoted_micros: plan.task.price_micros,
    charged_micros: outcome === 'hit' ? plan.chargeMicros : 0,
    latency_ms: latency,
    updated_at: now,
  }, captureOf(ctx, callId, output, secrets, now), outcome === 'hit' && plan.connection !== undefined);
  ctx.gateway.observer?.runFinished({ provider: plan.task.provider, outcome, totalMs: performance.now() - ctx.started, upstreamMs: ctx.upstreamMs });
  return latency;
}

/**
 * The call itself: recorded `pending` before the first upstream request, then each route tried in order.
 * A fault that another route may work around (network, timeout, 5xx, 429) moves on, except that a
 * customer credential never moves to a route that charges. A refused customer credential answers 401
 * connection_invalid (a connection becomes needs_reauth) and never falls back. Errors carry `call_id`.
 */
async function perform(ctx: CallContext, routes: Route[], plans: Plan[]): Promise<Run> {
  const { gateway, caller } = ctx;
  const now = Date.now();
  const callId = newId('call', now);
  const first = plans[0];
  const pending = callRow(ctx, callId, first.task, now, { identity: first.identity, connection_id: first.connection?.id ?? null });
  const counting = ctx.count.pending();
  if (counting) {
    // One wait before the upstream call: the count, the pending row and the principal's use, written within budget only.
    const principalSeen = principalActivityDue(caller.organization.id, ctx.principal, now);
    await ctx.count.counted(await startCountedCall(gateway.db, pending, counting, principalSeen));
    if (principalSeen) principalActivityRecorded(caller.organization.id, ctx.principal, now);
  } else {
    await Promise.all([insertCall(gateway.db, pending, true), recordPrincipalActivity(gateway, caller.organization.id, ctx.principal, now)]);
  }
  const failures = new Map<Task, string>();
  let customerFaulted = false;
  let last = first;
  let secrets: string[] = [];
  for (const plan of plans) {
    if (customerFaulted && plan.chargeMicros > 0) {
      failures.set(plan.task, `${plan.task.provider}: skipped, it charges and the customer credential failed`);
      continue;
    }
    last = plan;
    const attemptStarted = performance.now();
    const result = await attempt(gateway, plan);
    ctx.upstreamMs += performance.now() - attemptStarted;
    secrets = [...secrets, ...result.secrets];
    if (result.kind === 'hit') {
      // The answer's JSON: as the provider sent it, else written once, for the capture and the caller alike.
      const json = result.json ?? Buffer.from(JSON.stringify(result.output ?? null));
      const latency = await settle(ctx, callId, plan, 'hit', result.status, null, { value: result.output, json }, secrets);
      const run: Run = {
        output: result.output,
        receipt: {
          call_id: callId,
          identity: plan.identity,
          principal: ctx.principal,
          quoted_usd: microsToUsd(plan.task.price_micros),
          charged_usd: microsToUsd(plan.chargeMicros),
          latency_ms: latency,
        },
      };
      outputBytes.set(run, json);
      return run;
    }
    if (result.kind === 'refused') {
      let extras: Record<string, unknown> = {};
      if (plan.connection) {
        await markNeedsReauth(gateway, plan.connection.id);
        const url = await reconnectUrl(gateway, plan.connection);
        if (url) extras = { reconnect_url: url };
      }
      await settle(ctx, callId, plan, 'fault', 401, 'connection_invalid', undefined, secrets);
      const whose = plan.connection ? `connection ${plan.connection.id}` : 'the svc-credential';
      throw new GatewayError(
        'connection_invalid',
        `${plan.provider!.name} refused ${whose} (HTTP ${result.status}); sign in again on the same account`,
        { ...extras, call_id: callId },
      );
    }
    if (result.kind === 'answered') {
      await settle(ctx, callId, plan, 'fault', result.error.status, result.error.code, undefined, secrets);
      throw new GatewayError(result.error.code, result.error.message, { ...result.error.extras, call_id: callId });
    }
    failures.set(plan.task, result.reason);
    if (plan.customer) customerFaulted = true;
    if (!result.next) break;
  }
  await settle(ctx, callId, last, 'fault', 502, 'upstream_error', undefined, secrets);
  const report = routeReport(routes, plans, failures);
  gateway.log.warn({ call_id: callId, task: ctx.request.taskId }, `upstream fault: ${report}`);
  throw new GatewayError('upstream_error', `no route answered: ${report}`, { call_id: callId });
}

/** What became of each route, in route order: its fault, or that it was skipped ("newsapi: skipped, no credential"). */
function routeReport(routes: Route[], plans: Plan[], failures: Map<Task, string>): string {
  const planned = new Set(plans.map((plan) => plan.task));
  return routes
    .flatMap((route) => failures.get(route.task) ?? (planned.has(route.task) ? [] : [`${route.task.provider}: skipped, no credential`]))
    .join('; ');
}

/** The credentials a run's routes would send: never shown where its input is (the approval page). */
function planSecrets(request: RunRequest, plans: Plan[]): string[] {
  return [request.credential, ...plans.map((plan) => plan.secret)].filter((secret): secret is string => secret !== undefined);
}

/** The catalog version the caller pinned (`svc-version`) must be the one served. */
function checkPinnedVersion(gateway: Pick<Gateway, 'catalog'>, request: RunRequest): void {
  if (request.version !== undefined && request.version !== gateway.catalog.version) {
    throw new GatewayError('catalog_version_mismatch', `this gateway serves catalog version ${gateway.catalog.version}, not ${request.version}`, {
      catalog_version: gateway.catalog.version,
    });
  }
}

/**
 * What makes two runs the same request (docs/run.md, Idempotency): the task and its input as sent, and the
 * principal with every run header that changes the run, the svc-credential only as a keyed MAC, so a repeat
 * with another credential is another request and never receives the answer the first one got. `sentInput` is
 * the input's canonical JSON as sent, taken before its defaults were filled in.
 */
function requestFingerprint(gateway: Pick<Gateway, 'keyring'>, request: RunRequest, principal: string, sentInput: string): string {
  const { taskId, input: _filled, credential, idempotencyKey: _key, principal: _header, receiptPrincipal: _body, approvalId: _approval, approvalByRetry: _retry, ...headers } = request;
  return fingerprint({
    body: { task: taskId, input: sentInput },
    headers: { ...headers, principal, credential: credential === undefined ? null : gateway.keyring.sign(`svc-credential:${credential}`) },
  });
}

/**
 * POST /v1/tasks/{id}/run (and MCP run_task), with its rate-limit count (`count`, which the caller makes as the
 * answer leaves if the run has not: every run request counts). One step after another, each of which may answer
 * the run:
 *
 * 1. the catalog version pin;
 * 2. the task exists and is active;
 * 3. the input: one walk (text, nesting, values), a copy for each alternative route the routing headers
 *    leave, the task's own schema (defaults filled in);
 * 4. the principal;
 * 5. the routes (none: a recorded miss);
 * 6. the credential of each route;
 * 7. the end user's approval, when the organization's policy asks for one (none: a recorded miss);
 * 8. idempotency, then the call: recorded pending (with the count, when nothing was written before it), tried
 *    upstream route by route, settled with its capture.
 */
export async function runTask(gateway: Gateway, caller: Caller, request: RunRequest, count: RunCount, started = performance.now()): Promise<RunAnswer> {
  checkPinnedVersion(gateway, request);
  const task = taskToRun(gateway, request);
  const { input } = request;
  checkInputShape(task, input, gateway.config.limits.max_input_nodes);
  const alternatives = alternativeRoutes(gateway, task, input, request);
  const sentInput = request.idempotencyKey === undefined ? undefined : canonicalJson(input);
  checkTaskInput(task, input);
  const principal = runPrincipal(caller, request, task);
  const ctx: CallContext = { gateway, caller, principal, request, count, input, started, upstreamMs: 0, approvalId: null };
  const routes = await chooseRoutes(gateway, { task, provider: gateway.catalog.providers.get(task.provider), input }, alternatives, request);
  if (!routes.length) await recordMiss(ctx, task, new GatewayError('miss', `no route can run ${task.id} under the routing headers given`));
  const plans = await planRoutes(gateway, caller.organization.id, principal, task, routes, request, count.count);
  const approval = await checkApproval(gateway, {
    caller, request, task, principal, input, priceMicros: plans[0].task.price_micros, secrets: planSecrets(request, plans), beforeWrite: count.count,
  });
  ctx.approvalId = 'ask' in approval ? approval.ask.approval_id : approval.approvalId;
  if ('ask' in approval) await recordMiss(ctx, task, approvalRequired(task, approval.ask));
  const work = () => perform(ctx, routes, plans);
  if (sentInput === undefined) return { run: await work() };
  // The claim is a write, so the run counts first (and a replayed answer never holds a 429 of the count).
  await count.count();
  const run = await idempotent(gateway, caller.organization.id, request.idempotencyKey!, requestFingerprint(gateway, request, principal, sentInput), work);
  return { run };
}
