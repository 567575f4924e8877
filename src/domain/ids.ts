import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Time-ordered ids (ULID layout in lower-case Crockford base32): 10 characters of milliseconds, then
 * 16 random. Newest-first paging orders by id alone.
 */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let rest = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  const random = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += ALPHABET[random[i] & 31];
  return `${prefix}_${time}${tail}`;
}
