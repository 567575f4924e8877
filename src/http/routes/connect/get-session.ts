import type { ServerRoute } from '@hapi/hapi';
import { getConnectSession } from '../../../domain/consent/sessions.js';
import type { Gateway } from '../../../domain/gateway.js';
import { listPrincipal } from '../../../domain/principals.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const getSession = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/connect/sessions/{id}',
  options: {
    response: answers({ 200: records.connectSession }),
    plugins: { gateway: { userTokens: true }, openapi: { errors: ['connect_session_not_found'] } },
    validate: { params: fields.idParams() },
  },
  handler(request) {
    const caller = callerOf(request);
    return getConnectSession(gateway, caller.organization.id, request.params.id, listPrincipal(caller));
  },
});
