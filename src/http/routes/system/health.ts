import type { ServerRoute } from '@hapi/hapi';
import { GatewayError } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import { answers, records } from '../../records.js';

/** The one route that needs no catalog: `serve` answers it as soon as it listens, while the rest loads. */
export const health = ({ db }: Pick<Gateway, 'db'>): ServerRoute => ({
  method: 'GET',
  path: '/health',
  options: { response: answers({ 204: records.empty }), auth: false },
  async handler(_request, h) {
    try {
      await db.ping();
    } catch {
      throw new GatewayError('internal_error', 'the database is unreachable');
    }
    return h.response().code(204);
  },
});
