import { createHash } from 'node:crypto';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
} from '../db/repos/idempotency.js';
import { GatewayError, invalidInput, type ErrorCode } from './errors.js';
import type { Gateway } from './gateway.js';

/** Keys live 24 hours (docs/run.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** What the first request answered, replayed to every repeat. */
type StoredAnswer = { body: unknown } | { error: { code: ErrorCode; detail: string; extras: Record<string, unknown> } };

/** JSON text with every object's members in sorted order: one text for one value, however its members came ordered. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .filter((name) => (value as Record<string, unknown>)[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a request asks for, in two parts, so a repeat can be told which part differs. */
export interface RequestParts {
  /** What is run on what: the operation and its body. */
  body: unknown;
  /** Everything else that changes the answer (for a run: the principal and the run headers). */
  headers: unknown;
}

const digest = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32);

/**
 * A request's fingerprint: a 128-bit digest of the canonical JSON of each part, side by side, so the same
 * request sent with its members in another order is the same request, and a different one says which part
 * differs.
 */
export function fingerprint(request: RequestParts): string {
  return digest(request.body) + digest(request.headers);
}

function differingPart(held: string, asked: string): string {
  return held.slice(0, 32) === asked.slice(0, 32) ? 'headers' : 'body';
}

function replay(stored: StoredAnswer): unknown {
  if ('error' in stored) throw new GatewayError(stored.error.code, stored.error.detail, stored.error.extras);
  return stored.body;
}

/**
 * Runs `work` once per organization and key: a repeat with the same fingerprint gets the first answer
 * (success or error) without running again; while the first is running, 409 idempotency_in_flight;
 * another fingerprint under the same key, 400 invalid_input. Errors that are not the service's own
 * answers (crashes) release the key so a retry can run.
 */
export async function idempotent<T>(
  gateway: Pick<Gateway, 'db' | 'keyring'>,
  organizationId: string,
  key: string,
  requestFingerprint: string,
  work: () => Promise<T>,
  now = Date.now(),
): Promise<T> {
  const { db } = gateway;
  if (!(await claimIdempotencyKey(db, organizationId, key, requestFingerprint, now, now + IDEMPOTENCY_TTL_MS))) {
    const held = await findIdempotencyKey(db, organizationId, key);
    if (!held) return idempotent(gateway, organizationId, key, requestFingerprint, work, now);
    if (held.request_hash !== requestFingerprint) {
      const part = differingPart(held.request_hash, requestFingerprint);
      throw invalidInput(`this idempotency-key was used with a different request (${part})`, [
        { name: 'headers.idempotency-key', reason: `already used with a different request (${part})` },
      ]);
    }
    if (held.state === 'in_flight') {
      throw new GatewayError('idempotency_in_flight', 'a request with this idempotency-key is still being processed; retry later');
    }
    return replay(JSON.parse(gateway.keyring.decrypt(held.response!)) as StoredAnswer) as T;
  }
  let answer: T;
  try {
    answer = await work();
  } catch (err) {
    if (!(err instanceof GatewayError) || err.code === 'internal_error') {
      await releaseIdempotencyKey(db, organizationId, key);
      throw err;
    }
    await completeIdempotencyKey(db, organizationId, key, err.status, seal(gateway, { error: { code: err.code, detail: err.message, extras: err.extras } }));
    throw err;
  }
  await completeIdempotencyKey(db, organizationId, key, 200, seal(gateway, { body: answer }));
  return answer;
}

/**
 * Stored answers are encrypted: a provider's output may echo the credential it was sent, and a
 * connection_invalid answer carries a live reconnect link.
 */
function seal(gateway: Pick<Gateway, 'keyring'>, answer: StoredAnswer): string {
  return gateway.keyring.encrypt(JSON.stringify(answer));
}
