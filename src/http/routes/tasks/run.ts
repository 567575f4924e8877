import { Readable } from 'node:stream';
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { ErrorCode } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import { USD_DECIMAL, type RunRequest } from '../../../domain/run/request.js';
import { runAnswerJson, runTask } from '../../../domain/run/run.js';
import { callerOf } from '../../auth.js';
import { namedRunPrincipal, runCountOf } from '../../rate-limits.js';
import { fields } from '../../../domain/contracts/fields.js';
import { headers } from '../../headers.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';

const providerList = () =>
  fields.text(1000).pattern(/^\s*[a-z0-9-]+(\s*,\s*[a-z0-9-]+)*\s*$/).messages({ 'string.pattern.base': '{{#label}} must be a comma list of provider slugs' });

/** The run headers as a handler reads them, once runHeaders accepted them. */
export interface RunHeaders {
  [name: string]: string | undefined;
  'svc-principal'?: string;
  'svc-connection'?: string;
  'svc-account'?: string;
  'svc-credential'?: string;
  'svc-max-cost'?: string;
  'svc-fallback'?: 'platform';
  'svc-tag'?: string;
  'svc-order'?: string;
  'svc-only'?: string;
  'svc-sort'?: 'cost' | 'latency' | 'reliability';
  'svc-zero-retention'?: 'true' | 'false';
  'svc-version'?: string;
  'svc-approval'?: string;
  'idempotency-key'?: string;
}

/** The run headers' rules (docs/api.md; the MCP endpoint takes them too). */
export const runHeaderFields = {
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
  'svc-approval': fields.text(30).pattern(/^apr_[0-9a-z]{26}$/).messages({ 'string.pattern.base': '{{#label}} must be an approval id (apr_...) from an approval_required answer' })
    .description('the approval this run goes under, from an approval_required answer (docs/approvals.md)'),
  'idempotency-key': fields.text(255),
};
export const runHeaders = headers<RunHeaders>(runHeaderFields);

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
  'approval_required',
  'approval_declined',
  'approval_expired',
  'approval_mismatch',
];

/** The task input, with the reserved `receipt_options` beside it; the input itself is checked against the task's schema. */
const runBody = Joi.object<{ receipt_options?: { principal?: string } } & Record<string, unknown>>({ receipt_options: Joi.object({ principal: fields.principal() }) })
  .unknown(true)
  .allow(null);

/**
 * The RunRequest of a run, the same for REST and MCP: the task, its input, the receipt options' principal
 * and the run headers (already checked against runHeaders).
 */
export function runRequest(taskId: string, input: Record<string, unknown>, headers: RunHeaders, receiptPrincipal?: string): RunRequest {
  const zeroRetention = headers['svc-zero-retention'];
  return {
    taskId,
    input,
    principal: headers['svc-principal'],
    receiptPrincipal,
    connectionId: headers['svc-connection'],
    account: headers['svc-account'],
    credential: headers['svc-credential'],
    maxCost: headers['svc-max-cost'],
    fallback: headers['svc-fallback'],
    tag: headers['svc-tag'],
    order: headers['svc-order'],
    only: headers['svc-only'],
    sort: headers['svc-sort'],
    zeroRetention: zeroRetention === undefined ? undefined : zeroRetention === 'true',
    version: headers['svc-version'],
    idempotencyKey: headers['idempotency-key'],
    approvalId: headers['svc-approval'],
  };
}

/** Above this many bytes a run's answer is streamed in its pieces rather than joined. */
export const STREAMED_ANSWER_BYTES = 64 * 1024;

export const runTaskRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/tasks/{id}/run',
  options: {
    response: answers({ 200: records.run }),
    plugins: { gateway: { userTokens: true }, rateLimit: { class: 'run', principal: namedRunPrincipal }, taskInputBody: true, openapi: { errors: runErrors } },
    // On every run: one joi call for all four parts.
    validate: { params: fields.idParams(), headers: runHeaders, payload: runBody, inOnePass: true },
  },
  async handler(request, h) {
    const { receipt_options: receiptOptions, ...input } = request.payload ?? {};
    const run = runRequest(request.params.id, input, request.headers, receiptOptions?.principal);
    // Sent as JSON text: the provider's answer goes out as it came, never parsed and written again nor copied.
    const answer = runAnswerJson((await runTask(gateway, callerOf(request), run, runCountOf(request))).run);
    const length = answer.reduce((total, piece) => total + piece.length, 0);
    // A large answer goes out in its pieces (joining them would copy up to upstream.max_response_bytes); a small one
    // is joined, which hapi sends for some 15 µs less than a stream.
    const body = length > STREAMED_ANSWER_BYTES ? Readable.from(answer, { objectMode: false }) : Buffer.concat(answer, length);
    return h.response(body).bytes(length).type('application/json; charset=utf-8');
  },
});
