import type { ServerRoute } from '@hapi/hapi';
import { getConnection } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const readConnectionRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/connections/{id}',
  options: { response: answers({ 200: records.connectionDetail }), plugins: { gateway: { userTokens: true }, openapi: { errors: ['connection_not_found'] } }, validate: { params: fields.idParams() } },
  handler: (request) => getConnection(gateway, callerOf(request), request.params.id),
});
