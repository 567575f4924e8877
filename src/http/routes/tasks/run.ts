import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { ErrorCode } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import { USD_DECIMAL, type RunRequest } from '../../../domain/run/request.js';
import { runTask } from '../../../domain/run/run.js';
import { callerOf } from '../../auth.js';
import { namedRunPrincipal } from '../../rate-limits.js';
import { fields } from '../../../domain/contracts/fields.js';
import { headers } from '../../headers.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';

const providerList = () =>
  fields.text(1000).pattern(/^\s*[a-z0-9-]+(\s*,\s*[a-z0-9-]+)*\s*$/).messages({ 'string.pattern.base': '{{#label}} must be a comma list of provider slugs' });

/** The run headers (docs/api.md; the MCP endpoint takes them too). */
export const runHeaders = headers({
  'svc-principal': fields.principal(),
  'svc-connection': fields.text(100),
  'svc-account': fields.text(320),
  'svc-credential': fields.text(8192, 4),
  'svc-max-cost': fields.text(20).pattern(USD_DECIMAL).messages({ 'string.pattern.base': '{{#label}} must be a USD amount such as 0.005' }),
  'svc-fallback': fields.oneOf('platform'),
  'svc-tag': fields.text(200),
  'svc-order': providerList(),
  'svc-only': providerList(),
  'svc-sort': fields.oneOf('cost', 'latency', 'reliability'),
  'svc-zero-retention': fields.oneOf('true', 'false'),
  'svc-version': fields.text(64),
  'idempotency-key': fields.text(255),
});

/** What a run can answer besides the errors of every authenticated route and of its rate limit. */
const runErrors: ErrorCode[] = [
  'principal_required',
  'connection_invalid',
  'no_credential',
  'principal_forbidden',
  'grant_required',
  'connection_required',
  'scope_required',
  'connection_forbidden',
  'task_not_found',
  'connection_not_found',
  'miss',
  'catalog_version_mismatch',
  'connection_ambiguous',
  'idempotency_in_flight',
  'task_retired',
  'task_broken',
  'upstream_error',
];

/** The task input, with the reserved `receipt_options` beside it; the input itself is checked against the task's schema. */
const runBody = Joi.object<{ receipt_options?: { principal?: string } } & Record<string, unknown>>({ receipt_options: Joi.object({ principal: fields.principal() }) })
  .unknown(true)
  .allow(null);

/**
 * The RunRequest of a run, the same for REST and MCP: the task, its input, the receipt options' principal
 * and the run headers, read by lower-case name (already checked against runHeaders).
 */
export function runRequest(
  taskId: string,
  input: Record<string, unknown>,
  header: (name: string) => string | undefined,
  receiptPrincipal?: string,
): RunRequest {
  const zeroRetention = header('svc-zero-retention');
  return {
    taskId,
    input,
    principal: header('svc-principal'),
    receiptPrincipal,
    connectionId: header('svc-connection'),
    account: header('svc-account'),
    credential: header('svc-credential'),
    maxCost: header('svc-max-cost'),
    fallback: header('svc-fallback') as RunRequest['fallback'],
    tag: header('svc-tag'),
    order: header('svc-order'),
    only: header('svc-only'),
    sort: header('svc-sort') as RunRequest['sort'],
    zeroRetention: zeroRetention === undefined ? undefined : zeroRetention === 'true',
    version: header('svc-version'),
    idempotencyKey: header('idempotency-key'),
  };
}

export const runTaskRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/tasks/{id}/run',
  options: {
    response: answers({ 200: records.run }),
    plugins: { gateway: { userTokens: true }, rateLimit: { class: 'run', principal: namedRunPrincipal }, openapi: { errors: runErrors } },
    validate: { params: fields.idParams(), headers: runHeaders, payload: runBody },
  },
  async handler(request) {
    const { receipt_options: receiptOptions, ...input } = request.payload ?? {};
    const header = (name: string) => request.headers[name] as string | undefined;
    const run = runRequest(request.params.id, input, header, receiptOptions?.principal);
    return (await runTask(gateway, callerOf(request), run)).run;
  },
});
