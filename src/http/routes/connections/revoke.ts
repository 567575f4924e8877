import type { ServerRoute } from '@hapi/hapi';
import { revokeConnection } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const revokeConnectionRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'DELETE',
  path: '/v1/connections/{id}',
  options: { response: answers({ 200: records.connection }), plugins: { gateway: { userTokens: true }, openapi: { errors: ['connection_not_found'] } }, validate: { params: fields.idParams() } },
  handler: (request) => {
    const caller = callerOf(request);
    return revokeConnection(gateway, caller.organization.id, request.params.id, caller.principal);
  },
});
