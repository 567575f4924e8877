import type { ServerRoute } from '@hapi/hapi';
import { GatewayError } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import { answers, records } from '../../records.js';

export const health = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/health',
  options: { response: answers({ 204: records.empty }), auth: false },
  async handler(_request, h) {
    try {
      await gateway.db.ping();
    } catch {
      throw new GatewayError('internal_error', 'the database is unreachable');
    }
    return h.response().code(204);
  },
});
