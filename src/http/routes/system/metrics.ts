import type { ServerRoute } from '@hapi/hapi';
import type { Registry } from 'prom-client';
import { GatewayError } from '../../../domain/errors.js';
import { hashSecret, safeEqual } from '../../../domain/secrets.js';
import { bearerToken, CHALLENGE } from '../../auth.js';
import { headerText } from '../../headers.js';
import { answers, records } from '../../records.js';

/**
 * GET /metrics: the Prometheus text exposition, only to `Authorization: Bearer <metrics.token>`. The
 * token is the operator's, not one of the API's credentials. Digests are compared, so the time taken
 * says nothing about the token's length or how much of it matched.
 */
export const metricsRoute = (token: string, registry: Registry): ServerRoute => {
  const tokenHash = hashSecret(token);
  return {
    method: 'GET',
    path: '/metrics',
    options: { auth: false, response: answers({ 200: records.metrics }), plugins: { openapi: { security: 'metricsToken', errors: ['unauthenticated', 'invalid_token'] } } },
    async handler(request, h) {
      const presented = bearerToken(headerText(request.headers, 'authorization'));
      if (presented === undefined) throw new GatewayError('unauthenticated', 'send Authorization: Bearer <metrics.token>', {}, CHALLENGE);
      if (!safeEqual(hashSecret(presented), tokenHash)) throw new GatewayError('invalid_token', 'the bearer token is not this service\'s metrics.token', {}, CHALLENGE);
      return h.response(await registry.metrics()).type(registry.contentType);
    },
  };
};
