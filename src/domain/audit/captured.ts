/** One side of a capture (the input or the output) as it is stored. */
export interface CapturedSide {
  /** JSON text: the value whole, or past the limit a JSON string holding the start of its JSON text. */
  text: string;
  /** The size of the value's whole JSON text in bytes. */
  bytes: number;
  truncated: boolean;
}

const BACKSLASH = 0x5c;

/** A secret as it appears inside a JSON string of JSON.stringify's text. */
function asInJson(secret: string): string {
  return JSON.stringify(secret).slice(1, -1);
}

/** The value with every secret replaced by `[redacted]` in every text and member name, longest secret first. */
function redacted(value: unknown, hidden: string[]): unknown {
  const inText = (text: string) => hidden.reduce((kept, secret) => kept.split(secret).join('[redacted]'), text);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return inText(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, item]) => [inText(key), walk(item)]));
    return node;
  };
  return walk(value);
}

/**
 * The JSON of a captured value, credentials redacted. `json` is the value's JSON as received (or already
 * written), kept when it can hold no secret: JSON.stringify writes every string one way, so a secret it holds
 * is found by looking for it in that text, while a provider's own text may escape it otherwise (`\/`,
 * `\u0041`) unless it has no escape at all. Only JSON that holds a secret is written anew, without it.
 */
function redactedJson(value: unknown, secrets: string[], json: Buffer | undefined): Buffer | string {
  // Longest first, so "Token <key>" goes whole before "<key>" alone.
  const hidden = secrets.filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
  const text = json !== undefined && (!hidden.length || !json.includes(BACKSLASH)) ? json : JSON.stringify(value);
  return hidden.some((secret) => text.includes(asInJson(secret))) ? JSON.stringify(redacted(value, hidden)) : text;
}

/** The first `limit` bytes of UTF-8 JSON as text, cut back to a whole character. */
function startOf(json: Buffer | string, limit: number): string {
  if (typeof json === 'string') return json.slice(0, limit);
  let end = Math.min(limit, json.length);
  // A byte 10xxxxxx continues a character: the cut goes before the character it belongs to.
  while (end > 0 && end < json.length && (json[end] & 0xc0) === 0x80) end--;
  return json.toString('utf8', 0, end);
}

/** A JSON string holding as much of the start of `text` as fits in `limit` bytes, quotes and escapes included. */
function quotedStart(text: string, limit: number): string {
  let keep = limit;
  for (;;) {
    let start = text.slice(0, keep);
    // A cut between the halves of a surrogate pair would leave a lone surrogate.
    if (/[\ud800-\udbff]$/.test(start)) start = start.slice(0, -1);
    const quoted = JSON.stringify(start);
    const size = Buffer.byteLength(quoted);
    if (size <= limit) return quoted;
    // Shrink in proportion (quotes and escapes grow the text), then by at least one character: a few rounds at most.
    keep = Math.min(start.length - 1, Math.floor((start.length * limit) / size) - 2);
  }
}

/**
 * One side of a capture, bounded: its JSON (`json`, the JSON as received or already written, saves writing it
 * again), secrets redacted, whole when it fits in `limit` bytes (limits.max_capture_bytes), else cut to the
 * start that fits.
 */
export function captureSide(value: unknown, secrets: string[], limit: number, json?: Buffer): CapturedSide {
  const whole = redactedJson(value, secrets, json);
  const bytes = typeof whole === 'string' ? Buffer.byteLength(whole) : whole.length;
  if (bytes <= limit) return { text: whole.toString(), bytes, truncated: false };
  return { text: quotedStart(startOf(whole, limit), limit), bytes, truncated: true };
}
