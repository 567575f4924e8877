import { createHash } from 'node:crypto';
import { InputRefused } from '../errors.js';

export function hashText(input: { text: string; algorithm?: 'sha256' | 'sha1' | 'sha512' | 'md5'; encoding?: 'hex' | 'base64' }) {
  const algorithm = input.algorithm ?? 'sha256';
  const encoding = input.encoding ?? 'hex';
  return { algorithm, encoding, digest: createHash(algorithm).update(input.text, 'utf8').digest(encoding) };
}

export function base64Encode(input: { text: string; url_safe?: boolean }) {
  return { base64: Buffer.from(input.text, 'utf8').toString(input.url_safe ? 'base64url' : 'base64') };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

export function base64Decode(input: { base64: string }) {
  const compact = input.base64.replace(/\s+/g, '');
  if (!(BASE64.test(compact) || BASE64URL.test(compact)) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new InputRefused('the text is not base64', [{ name: 'base64', reason: 'must be standard or URL-safe base64' }]);
  }
  const bytes = Buffer.from(compact, BASE64.test(compact) ? 'base64' : 'base64url');
  const text = bytes.toString('utf8');
  // Bytes that are not UTF-8 text come back as hex rather than as replacement characters.
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { hex: bytes.toString('hex') };
}

export function slugify(input: { text: string; separator?: string; max_length?: number }) {
  const separator = input.separator ?? '-';
  const words = input.text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const full = words.join(separator);
  const max = input.max_length ?? full.length;
  if (full.length <= max) return { slug: full };
  // Cut at a word boundary when one exists, so a slug never ends mid-word or on the separator.
  const head = full.slice(0, max);
  const endsOnWord = full.startsWith(separator, max);
  const cut = endsOnWord ? max : head.lastIndexOf(separator);
  return { slug: cut > 0 ? full.slice(0, cut) : head };
}
