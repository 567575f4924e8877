import type { Socket } from 'node:net';
import type { Request } from '@hapi/hapi';

/** Answers written straight on a socket, outside hapi (a request Node refused before hapi could answer it). */
const socketAnswers = new WeakMap<Socket, number>();

/** Notes the status written on `socket` outside hapi, for the request hapi may still be holding on it. */
export function noteSocketAnswer(socket: Socket, status: number): void {
  socketAnswers.set(socket, status);
}

/**
 * The status the client actually got: the one written in the response's head, else the one written on its
 * socket outside hapi (a 408 for a body too slow), else 0: the connection ended before any answer (a body cut
 * off past limits.max_body_bytes, a client gone). What the handler would have answered plays no part.
 */
export function answeredStatus(request: Request): number {
  const { req, res } = request.raw;
  if (res.headersSent) return res.statusCode;
  return socketAnswers.get(req.socket) ?? 0;
}
