import { randomBytes, randomUUID } from 'node:crypto';

/** RFC 9562 version 7: 48-bit Unix milliseconds, then random bits, so ids sort by creation time. */
function uuidV7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function generateUuids(input: { version?: 4 | 7; count?: number }): { uuids: string[] } {
  const make = input.version === 7 ? () => uuidV7() : () => randomUUID();
  return { uuids: Array.from({ length: input.count ?? 1 }, make) };
}
