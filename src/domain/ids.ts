import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

let lastTime = -1;
let lastRandom: number[] = [];

/** Random bytes drawn 4 KiB at a time: one call to the system's generator per 256 ids, not per id. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = POOL_BYTES;

function freshDigits(): number[] {
  if (taken + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  const digits = Array.from(pool.subarray(taken, taken + 16), (b) => b & 31);
  taken += 16;
  return digits;
}

function encodeTime(ms: number): string {
  let time = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  return time;
}

/** The next 16 random digits: fresh ones in a new millisecond, the previous ones plus one within the same. */
function nextRandom(ms: number): number[] {
  if (ms > lastTime) {
    lastTime = ms;
    lastRandom = freshDigits();
    return lastRandom;
  }
  const next = [...lastRandom];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      break;
    }
    next[i] = 0;
  }
  lastRandom = next;
  return next;
}

/**
 * Time-ordered ids (ULID layout in lower-case Crockford base32): 10 characters of milliseconds, then
 * 16 random. Within one millisecond a process counts up from the last id (monotonic ULIDs), so
 * newest-first paging by id alone keeps the order in which one process created rows.
 */
export function newId(prefix: string, now = Date.now()): string {
  // An id for an earlier time (a clock step back, or a caller dating a row) gets fresh random digits.
  const random = now >= lastTime ? nextRandom(now) : freshDigits();
  return `${prefix}_${encodeTime(now)}${random.map((d) => ALPHABET[d]).join('')}`;
}
