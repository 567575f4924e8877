import type { Socket } from 'node:net';
import Hapi, { type Server } from '@hapi/hapi';
import Joi from 'joi';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { Gateway } from '../domain/gateway.js';
import { GatewayError, invalidInput } from '../domain/errors.js';
import { CATALOG_VERSION_HEADER, registerCatalogVersion } from './catalog-version.js';
import { answeredStatus, noteSocketAnswer } from './answered.js';
import { failAction, problemBody, problemReply, registerErrorHandling } from './errors.js';
import { noQuery } from './operation.js';
import { renderHostedError } from './routes/hosted/respond.js';
import { health } from './routes/system/health.js';

/**
 * The server without the gateway's API (src/http/server.ts adds it): what shapes every answer and GET /health,
 * which needs no catalog. It loads without the route modules, so `serve` can listen before they load.
 */

const corsRequestHeaders = [
  'svc-principal', 'svc-connection', 'svc-account', 'svc-credential', 'svc-max-cost', 'svc-fallback', 'svc-tag',
  'svc-order', 'svc-only', 'svc-sort', 'svc-zero-retention', 'svc-version', 'svc-approval', 'idempotency-key',
];
const corsExposedHeaders = ['svc-catalog-version', 'retry-after', 'ratelimit', 'ratelimit-policy'];

export interface ServerOptions {
  host?: string;
  port?: number;
}

function clientError(err: NodeJS.ErrnoException, timeouts: Config['server']): GatewayError {
  if (err.code === 'HPE_HEADER_OVERFLOW') return new GatewayError('payload_too_large', 'the request headers are larger than this service accepts');
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new GatewayError(
      'request_timeout',
      `the request did not arrive in time: headers within ${timeouts.headers_timeout_ms} ms, the whole request within ${timeouts.payload_timeout_ms} ms`,
    );
  }
  return new GatewayError('invalid_input', 'the HTTP request is malformed');
}

/**
 * Requests Node rejects before hapi sees them (bad header bytes, oversized headers, headers or body too
 * slow) still get problem+json, and their socket is destroyed once the answer is flushed: a client that
 * neither reads nor closes cannot keep it open.
 */
function answerClientErrors(server: Server, config: Config, catalogVersion: string): void {
  const listener = server.listener;
  listener.removeAllListeners('clientError');
  listener.on('clientError', (err: NodeJS.ErrnoException, socket: Socket & { _httpMessage?: { headersSent?: boolean } }) => {
    if (!socket.writable || err.code === 'ECONNRESET' || socket._httpMessage?.headersSent) return socket.destroy();
    const error = clientError(err, config.server);
    noteSocketAnswer(socket, error.status);
    const body = JSON.stringify(problemBody(error, config.server.public_url));
    socket.end(
      `HTTP/1.1 ${error.status} ${error.title}\r\nContent-Type: application/problem+json\r\n${CATALOG_VERSION_HEADER}: ${catalogVersion}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
}

/**
 * Idle or trickling clients cannot hold sockets: Node answers (through clientError) a request whose
 * headers are not in within server.headers_timeout_ms, or that is not complete within
 * server.payload_timeout_ms of its start, and checks often enough to keep those deadlines to a fraction
 * of a second. A request without a Host header reaches hapi, to be refused as problem+json on a
 * connection closed after the answer.
 */
function limitSlowClients(server: Server, config: Config): void {
  const timeouts = config.server;
  // Both fields exist on Node 20's http.Server; its type declarations lack them.
  const listener = server.listener as Server['listener'] & { connectionsCheckingInterval: number; requireHostHeader: boolean };
  listener.headersTimeout = timeouts.headers_timeout_ms;
  listener.requestTimeout = Math.max(timeouts.headers_timeout_ms, timeouts.payload_timeout_ms);
  // Read when the server starts listening.
  listener.connectionsCheckingInterval = Math.max(50, Math.min(1000, Math.floor(Math.min(timeouts.headers_timeout_ms, timeouts.payload_timeout_ms) / 4)));
  listener.requireHostHeader = false;
  server.ext('onRequest', (request, h) => {
    if (request.raw.req.httpVersion !== '1.1' || request.headers.host !== undefined) return h.continue;
    return problemReply(h, invalidInput('an HTTP/1.1 request needs a Host header'), config.server.public_url).header('connection', 'close').takeover();
  });
}

/**
 * A query string that is not percent-encoded UTF-8 (how a lone surrogate would arrive, e.g. %ED%A0%80)
 * is invalid_input; left alone, the parser would quietly turn it into U+FFFD and pass it on.
 */
function rejectMalformedQueries(server: Server): void {
  server.ext('onRequest', (request, h) => {
    try {
      decodeURIComponent(request.url?.search ?? '');
    } catch {
      throw invalidInput('the query string is not valid percent-encoded UTF-8');
    }
    return h.continue;
  });
}

/**
 * The access log's lines hold no secret by construction (a route template, a status, ids): they are written by a
 * child of the gateway's logger without its redaction, which walks every member of every line it writes.
 */
const accessLoggers = new WeakMap<Logger, Logger>();

function accessLogger(log: Logger): Logger {
  let access = accessLoggers.get(log);
  if (!access) accessLoggers.set(log, (access = log.child({}, { redact: [] })));
  return access;
}

function logRequests(server: Server, gateway: Pick<Gateway, 'log'>): void {
  server.events.on('response', (request) => {
    accessLogger(gateway.log).info({
      method: request.method.toUpperCase(),
      // Always the route template, never the address: hosted links carry secrets, and any path parameter
      // (or an unmatched path) may hold one pasted by mistake, e.g. DELETE /v1/tokens/<the token itself>.
      path: request.route.path,
      status: answeredStatus(request),
      ms: Date.now() - request.info.received,
      org: request.auth.credentials?.caller?.organization.id,
      fault: request.app.faulted?.name,
    }, 'request');
  });
}

/**
 * The server without the gateway's API: what shapes every answer (problem+json errors, the client-error and
 * slow-client rules, the access log, the catalog version) and `GET /health`. It loads without the route
 * modules, so `serve` can listen before they load.
 */
export function baseServer(gateway: Gateway, options: ServerOptions): Server {
  const { config } = gateway;
  const server = Hapi.server({
    host: options.host ?? config.server.host,
    port: options.port ?? config.server.port,
    router: { isCaseSensitive: true, stripTrailingSlash: false },
    routes: {
      validate: { failAction, options: { abortEarly: false }, query: noQuery },
      payload: { timeout: false, maxBytes: config.limits.max_body_bytes, allow: ['application/json'], defaultContentType: 'application/json' },
      response: { emptyStatusCode: 204 },
      security: { noSniff: true, xframe: 'deny', referrer: 'no-referrer' },
      // Browsers may call with principal-bound tokens; the organization's trusted origins are enforced
      // per request by the auth strategy (403 untrusted_origin), so preflights are answered for any origin.
      cors: { origin: ['*'], additionalHeaders: corsRequestHeaders, additionalExposedHeaders: corsExposedHeaders, maxAge: 600 },
    },
  });
  server.validator(Joi);
  registerErrorHandling(server, config.server.public_url, renderHostedError);
  registerCatalogVersion(server, gateway.catalog.version);
  answerClientErrors(server, config, gateway.catalog.version);
  limitSlowClients(server, config);
  rejectMalformedQueries(server);
  logRequests(server, gateway);
  server.route(health(gateway));
  return server;
}

/** Stops accepting, lets in-flight requests finish (up to the timeout), then closes the database. */
export async function shutdown(server: Server, gateway: Pick<Gateway, 'db'>, timeoutMs = 10000): Promise<void> {
  await server.stop({ timeout: timeoutMs });
  await gateway.db.close();
}

