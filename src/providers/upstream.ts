import { EventEmitter } from 'node:events';
import { Agent, request, type Dispatcher } from 'undici';
import { TargetRefused } from './errors.js';
import { JsonShape } from './json-shape.js';
import type { TargetGuard } from './targets.js';

/** One request to a provider, fully rendered (credential included); never logged or captured. */
export interface UpstreamRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** A longer answer is a fault: reading stops at this many bytes and the rest is never fetched. */
  maxResponseBytes: number;
  /**
   * A JSON answer holding more values than this (or nested deeper than the JSON limit) is a fault too, found as
   * its bytes arrive, before it is parsed; MAX_ANSWER_VALUES unless given.
   */
  maxResponseValues?: number;
}

/** How long a request may take and how much of its answer is read. */
export type UpstreamLimits = Pick<UpstreamRequest, 'timeoutMs' | 'maxResponseBytes' | 'maxResponseValues'>;

/** The values a JSON answer may hold where the caller sets no limit (probes, OAuth, webhooks): an internal safety cap. */
export const MAX_ANSWER_VALUES = 100_000;

export interface UpstreamAnswer {
  status: number;
  /** The provider's answer: parsed JSON when it is JSON, else the text; null when empty. */
  body: unknown;
  /** The answer's bytes exactly as received, when `body` was parsed from them as JSON. */
  json?: Buffer;
  /** Response headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
}

/**
 * No usable HTTP answer: the provider could not be reached, did not answer in time, or answered more than
 * the request's limit. `message` says what failed in words an operator acts on ("connect refused",
 * "could not resolve api.example.com", "no answer within 10000 ms", "answer larger than 10485760 bytes").
 */
export class UpstreamUnreachable extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'too_large' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

/** Connection-level headers that must not be forwarded (RFC 9110 section 7.6.1), plus those undici sets itself. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** The headers without the hop-by-hop ones: the same object when it has none (a provider's request, built without them). */
export function withoutHopByHop(headers: Record<string, string>): Record<string, string> {
  const hopByHop = (name: string) => HOP_BY_HOP.has(name.toLowerCase());
  if (!Object.keys(headers).some(hopByHop)) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop(name)));
}

/** Pooled keep-alive connections shared by every provider call of the process. */
const agent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 256 });

const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL']);
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connect refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  UND_ERR_SOCKET: 'connection closed before the answer was complete',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** What went wrong on the way, from the error undici or the socket raised. */
function unreachable(err: unknown, upstream: UpstreamRequest, deadline: Deadline): UpstreamUnreachable {
  if (err instanceof UpstreamUnreachable) return err;
  if (err instanceof TargetRefused) return new UpstreamUnreachable('refused', `target refused: ${err.message}`);
  const code = (err as { code?: string }).code ?? '';
  if (deadline.expired || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new UpstreamUnreachable('timeout', `no answer within ${upstream.timeoutMs} ms`);
  }
  if (UNRESOLVED.has(code)) return new UpstreamUnreachable('network', `could not resolve ${new URL(upstream.url).hostname}`);
  if (NETWORK_WORDS[code]) return new UpstreamUnreachable('network', NETWORK_WORDS[code]);
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return new UpstreamUnreachable('network', `TLS failed (${code})`);
  return new UpstreamUnreachable('network', code ? `network error (${code})` : 'network error');
}

function tooLarge(limit: number): UpstreamUnreachable {
  return new UpstreamUnreachable('too_large', `answer larger than ${limit} bytes`);
}

/** How deep a JSON answer may nest: as deep as a request's JSON may (the outermost object or array is level 1). */
export const MAX_ANSWER_DEPTH = 64;

const JSON_TYPE = /[/+]json\b/i;

function contentTypeOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['content-type'];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * An exchange's deadline, counted on the exchange itself. When the time is up, the exchange ends at the first
 * turn of the event loop that brings nothing new from the upstream: an answer that arrived while the gateway's
 * event loop was busy elsewhere is taken in first, so time spent waiting for the gateway is never blamed on the
 * upstream, while an upstream that sends nothing more is cut off at the deadline.
 */
class Deadline {
  /** What undici listens to for the abort: an EventEmitter, which undici takes as a signal, costs a fraction of an AbortController. */
  readonly signal = new EventEmitter();
  expired = false;
  private progress = 0;
  private readonly timer: NodeJS.Timeout;
  private check: NodeJS.Immediate | undefined;

  constructor(ms: number) {
    this.timer = setTimeout(() => this.expire(), ms);
  }

  /** Something arrived: the answer's headers or a piece of its body. */
  moved(): void {
    this.progress++;
  }

  private expire(): void {
    const seen = this.progress;
    this.check = setImmediate(() => {
      if (this.progress !== seen) return this.expire();
      this.expired = true;
      this.signal.emit('abort');
    });
  }

  clear(): void {
    clearTimeout(this.timer);
    if (this.check) clearImmediate(this.check);
  }
}

/**
 * The answer's bytes, never more than `maxResponseBytes`, and for a JSON answer never more values or levels than
 * its limits (counted as the bytes arrive): past a limit the body is destroyed (its connection closed) unread.
 */
async function readLimited(response: Dispatcher.ResponseData, upstream: UpstreamRequest, deadline: Deadline): Promise<Buffer> {
  const { body } = response;
  const limit = upstream.maxResponseBytes;
  if (Number(response.headers['content-length']) > limit) {
    // Destroyed unread, undici reports the abort as an error on the body: that abort is the point here.
    body.once('error', () => undefined).destroy();
    throw tooLarge(limit);
  }
  const isJson = JSON_TYPE.test(contentTypeOf(response.headers) ?? '');
  const shape = isJson ? new JsonShape(MAX_ANSWER_DEPTH, upstream.maxResponseValues ?? MAX_ANSWER_VALUES) : undefined;
  // A declared length (within the limit) is read into one buffer of that size, with no copy at the end.
  const declared = Number(response.headers['content-length']);
  const whole = Number.isInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  let filled = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    deadline.moved();
    if (size + chunk.length > limit) {
      body.destroy();
      throw tooLarge(limit);
    }
    const beyond = shape?.feed(chunk);
    if (beyond) {
      body.destroy();
      throw new UpstreamUnreachable('too_large', `answer ${beyond}`);
    }
    if (whole && !chunks.length && filled + chunk.length <= whole.length) filled += chunk.copy(whole, filled);
    else chunks.push(chunk);
    size += chunk.length;
  }
  if (whole && filled === whole.length && !chunks.length) return whole;
  return Buffer.concat(whole ? [whole.subarray(0, filled), ...chunks] : chunks, size);
}

/** An answer as it came, its bytes not yet parsed. */
interface ReceivedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/**
 * The one way a request leaves the gateway: redirects are never followed, the exchange is bounded by
 * `timeoutMs` (its own time: see Deadline) and the answer by its limits, and failures are said without
 * secrets. With a `guard`, the URL's host and every address connected to must pass it. Any HTTP answer
 * (including 4xx and 5xx) within the limits is returned, else it throws UpstreamUnreachable.
 */
async function receive(upstream: UpstreamRequest, guard: TargetGuard | undefined): Promise<ReceivedAnswer> {
  const refusal = guard?.hostRefusal(new URL(upstream.url));
  if (refusal) throw new UpstreamUnreachable('refused', `target refused: ${refusal}`);
  const deadline = new Deadline(upstream.timeoutMs);
  try {
    const response = await request(upstream.url, {
      method: upstream.method as 'GET',
      headers: withoutHopByHop(upstream.headers),
      body: upstream.body,
      dispatcher: guard?.dispatcher ?? agent,
      signal: deadline.signal,
      // The deadline above bounds the exchange; undici's own timers would count the gateway's busy time too.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    deadline.moved();
    const bytes = await readLimited(response, upstream, deadline);
    return { status: response.statusCode, headers: response.headers, bytes };
  } catch (err) {
    throw unreachable(err, upstream, deadline);
  } finally {
    deadline.clear();
  }
}

function parseBody(bytes: Buffer, contentType: string | undefined): { body: unknown; json?: Buffer } {
  if (bytes.length === 0) return { body: null };
  const text = bytes.toString('utf8');
  if (contentType && JSON_TYPE.test(contentType)) {
    try {
      return { body: JSON.parse(text), json: bytes };
    } catch {
      return { body: text };
    }
  }
  return { body: text };
}

/**
 * Sends one request, as every provider call and webhook delivery is sent, by `receive`'s rules (a
 * `guard` for targets a customer chose), and parses the answer.
 */
export async function sendUpstream(upstream: UpstreamRequest, guard?: TargetGuard): Promise<UpstreamAnswer> {
  const { status, headers, bytes } = await receive(upstream, guard);
  return { status, headers, ...parseBody(bytes, contentTypeOf(headers)) };
}

/** What a fetch-speaking client passes (oauth4webapi's custom fetch): a string or form body. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams;
}

/** Statuses whose answer has no body, which a web Response refuses to carry one for. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A fetch for clients that speak fetch and parse the answer themselves (oauth4webapi): every request is
 * sent by `receive`'s rules with these limits, to the operator's own endpoints (no guard), and its answer
 * handed back as a web Response. The client's redirect mode and signal play no part: redirects are never
 * followed and the deadline is `timeoutMs`.
 */
export function upstreamFetch(limits: UpstreamLimits): (url: string, init: FetchInit) => Promise<Response> {
  return async (url, init) => {
    const { status, headers, bytes } = await receive({ method: init.method, url, headers: init.headers, body: init.body?.toString(), ...limits }, undefined);
    const webHeaders = new Headers();
    for (const [name, value] of Object.entries(headers)) {
      for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) webHeaders.append(name, each);
    }
    return new Response(NULL_BODY_STATUSES.has(status) ? null : bytes, { status, headers: webHeaders });
  };
}
