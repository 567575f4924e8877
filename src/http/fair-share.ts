import type { Socket } from 'node:net';
import type { Request, Server } from '@hapi/hapi';
import type { Caller } from '../domain/callers.js';
import { GatewayError } from '../domain/errors.js';
import { FairShare, type Turn } from '../domain/fair-share.js';
import type { Gateway } from '../domain/gateway.js';

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    /** The request's turn in its organization's fair share, ended with what it read and answered. */
    fairShareTurn?: Turn;
  }
}

/** Waits, once the caller is known and before the body is read, until the request may go on. */
export type TakeTurn = (request: Request, caller: Caller) => Promise<void>;

/** What each socket had read and written when its previous request ended: a request moved the difference. */
const socketCounts = new WeakMap<Socket, { read: number; written: number }>();

const declaredLength = (value: unknown) => Number(value) || 0;

/**
 * The bytes a request read and answered, headers included, counted on its socket from the end of the request
 * before it on the same connection; server.inject's sockets count nothing, so there the declared lengths.
 */
function bytesMoved(request: Request): number {
  const socket = request.raw.req.socket as Socket | undefined;
  if (typeof socket?.bytesRead !== 'number' || typeof socket.bytesWritten !== 'number') {
    return declaredLength(request.headers['content-length']) + declaredLength(request.raw.res.getHeader('content-length'));
  }
  const before = socketCounts.get(socket) ?? { read: 0, written: 0 };
  const now = { read: socket.bytesRead, written: socket.bytesWritten };
  socketCounts.set(socket, now);
  return now.read - before.read + (now.written - before.written);
}

/**
 * Each organization's fair share of this process (src/domain/fair-share.ts, config `fair_share`): a request
 * takes its turn in the auth strategy, before hapi reads its body, and ends it with the bytes it moved once
 * its answer has gone (or the client has gone). A request refused because its organization already has
 * `fair_share.max_waiting` waiting is 429 `rate_limited` with Retry-After (without RateLimit headers: no budget was spent).
 */
export function registerFairShare(server: Server, gateway: Pick<Gateway, 'config'>): TakeTurn {
  const settings = gateway.config.fair_share;
  const share = new FairShare(settings);
  server.events.on('response', (request) => request.app.fairShareTurn?.finish(bytesMoved(request)));
  return async (request, caller) => {
    const turn = share.enter(caller.organization.id, declaredLength(request.headers['content-length']));
    if ('retryAfterMs' in turn) {
      throw new GatewayError(
        'rate_limited',
        `this organization already has ${settings.max_waiting} requests waiting for their share of the gateway`,
        {},
        { 'Retry-After': String(Math.ceil(turn.retryAfterMs / 1000)) },
      );
    }
    request.app.fairShareTurn = turn;
    await turn.admitted;
  };
}
