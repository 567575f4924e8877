import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { revokeUserToken } from '../../../domain/tokens.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const revokeToken = (gateway: Gateway): ServerRoute => operation({
  method: 'DELETE',
  path: '/v1/tokens/{id}',
  options: { response: answers({ 204: records.empty }), plugins: { openapi: { errors: ['token_not_found'] } }, validate: { params: fields.idParams() } },
  async handler(request, h) {
    await revokeUserToken(gateway, callerOf(request).organization.id, request.params.id);
    return h.response().code(204);
  },
});
