import type { ServerRoute } from '@hapi/hapi';
import type { Registry } from 'prom-client';
import { GatewayError } from '../../../domain/errors.js';
import { hashSecret, safeEqual } from '../../../domain/secrets.js';

const BEARER = /^Bearer +([^\s]+) *$/i;

/**
 * Compares digests, so the time taken says nothing about the token's length or how much of it matched.
 * The metrics token is the operator's, not an organization's: it is not one of the API's credentials.
 */
function presentsToken(header: string | undefined, tokenHash: string): boolean {
  const match = header ? BEARER.exec(header) : null;
  return safeEqual(hashSecret(match?.[1] ?? ''), tokenHash);
}

/** GET /metrics: the Prometheus text exposition, only to `Authorization: Bearer <metrics.token>`. */
export const metricsRoute = (token: string, registry: Registry): ServerRoute => {
  const tokenHash = hashSecret(token);
  return {
    method: 'GET',
    path: '/metrics',
    options: { auth: false },
    async handler(request, h) {
      if (!presentsToken(request.headers.authorization as string | undefined, tokenHash)) {
        throw new GatewayError('unauthenticated', 'send Authorization: Bearer <metrics.token>', {}, { 'WWW-Authenticate': 'Bearer' });
      }
      return h.response(await registry.metrics()).type(registry.contentType);
    },
  };
};
