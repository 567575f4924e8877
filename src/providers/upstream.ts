import { Agent, request } from 'undici';

/** One request to a provider, fully rendered (credential included); never logged or captured. */
export interface UpstreamRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface UpstreamAnswer {
  status: number;
  /** The provider's answer: parsed JSON when it is JSON, else the text; null when empty. */
  body: unknown;
}

/** The provider could not be reached or did not answer in time: no HTTP answer exists. */
export class UpstreamUnreachable extends Error {
  constructor(readonly reason: 'timeout' | 'network') {
    super(reason === 'timeout' ? 'the provider did not answer in time' : 'the provider could not be reached');
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

export function withoutHopByHop(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
}

/** Pooled keep-alive connections shared by every upstream call of the process. */
const agent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 256 });

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return null;
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Sends one request; any HTTP answer (including 4xx and 5xx) is returned, only its absence throws. */
export async function sendUpstream(upstream: UpstreamRequest): Promise<UpstreamAnswer> {
  const signal = AbortSignal.timeout(upstream.timeoutMs);
  try {
    const response = await request(upstream.url, {
      method: upstream.method as 'GET',
      headers: withoutHopByHop(upstream.headers),
      body: upstream.body,
      dispatcher: agent,
      signal,
      headersTimeout: upstream.timeoutMs,
      bodyTimeout: upstream.timeoutMs,
    });
    const text = await response.body.text();
    const contentType = response.headers['content-type'];
    return { status: response.statusCode, body: parseBody(text, Array.isArray(contentType) ? contentType[0] : contentType) };
  } catch (err) {
    const code = (err as { code?: string }).code;
    const timedOut = signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
    throw new UpstreamUnreachable(timedOut ? 'timeout' : 'network');
  }
}
