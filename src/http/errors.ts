import type { Boom } from '@hapi/boom';
import type { Lifecycle, Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi';
import type { ValidationError, ValidationErrorItem } from 'joi';
import { GatewayError, invalidInput, type ErrorCode, type InvalidParam } from '../domain/errors.js';

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  [extra: string]: unknown;
}

/** hapi's own errors (routing, payload parsing, auth plumbing) mapped onto the API's error codes. */
function fromBoom(error: Boom): GatewayError {
  const status = error.output.statusCode;
  if (status === 404) return new GatewayError('route_not_found', 'no route matches this method and path');
  if (status === 413) return new GatewayError('payload_too_large', 'the request body is larger than this service accepts');
  if (status === 415) return invalidInput('the request body must be application/json');
  if (status === 401) return new GatewayError('unauthenticated', 'send Authorization: Bearer <key>');
  if (status === 400) {
    const message = error.output.payload.message ?? '';
    return invalidInput(/JSON/i.test(message) ? 'the request body is not valid JSON' : 'the request is malformed');
  }
  if (status < 500) return invalidInput('the request is malformed');
  return new GatewayError('internal_error', 'the service failed to handle this request; it has been logged');
}

export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if ((error as Boom).isBoom && !isServerFault(error as Boom)) return fromBoom(error as Boom);
  return new GatewayError('internal_error', 'the service failed to handle this request; it has been logged');
}

function isServerFault(error: Boom): boolean {
  return error.output.statusCode >= 500;
}

export function problemBody(error: GatewayError, publicUrl: string): ProblemDetails {
  return {
    type: `${publicUrl}/problems/${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...error.extras,
  };
}

/** Joi's failures of one part of a request (`headers`, `payload`, a tool call's `arguments`): invalid_input naming each bad field and where it was. */
export function invalidSource(source: string, details: ValidationErrorItem[]): GatewayError {
  const params: InvalidParam[] = details.map((detail) => ({
    name: [source, ...detail.path].join('.'),
    reason: detail.message,
  }));
  return invalidInput(params.length ? params.map((p) => p.reason).join('; ') : `invalid ${source}`, params);
}

/** hapi's validation failures, answered as invalidSource. */
export const failAction: Lifecycle.Method = (_request, _h, err) => {
  const boom = err as Boom & Partial<ValidationError>;
  const source = (boom.output?.payload as { validation?: { source?: string } } | undefined)?.validation?.source ?? 'request';
  throw invalidSource(source, boom.details ?? []);
};

/** Hosted pages answer errors in HTML; they register a renderer for their routes. */
export type ErrorRenderer = (request: Request, h: ResponseToolkit, error: GatewayError) => Lifecycle.ReturnValue;

export const HOSTED_PREFIX = '/v1/hosted/';

/** The single place every error leaves the service: problem+json, no stack, no SQL, no secret. */
export function registerErrorHandling(server: Server, publicUrl: string, renderHosted?: ErrorRenderer): void {
  server.ext('onPreResponse', (request, h) => {
    const response = request.response;
    if (!(response instanceof Error) && !(response as unknown as Boom).isBoom) return h.continue;
    const error = toGatewayError(response);
    if (error.code === 'internal_error') {
      const cause = response as Error & { original?: { code?: string } };
      request.log(['error'], { err: { name: cause.name, code: cause.original?.code ?? (cause as { code?: string }).code } });
      request.app.faulted = { name: cause.name };
    }
    if (renderHosted && request.path.startsWith(HOSTED_PREFIX)) return renderHosted(request, h, error);
    return problemReply(h, error, publicUrl);
  });
}

/** The problem+json answer of an error, with its headers (Retry-After, RateLimit, ...). */
export function problemReply(h: ResponseToolkit, error: GatewayError, publicUrl: string): ResponseObject {
  const reply = h.response(problemBody(error, publicUrl)).code(error.status).type('application/problem+json');
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply;
}

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    faulted?: { name: string };
  }
}
