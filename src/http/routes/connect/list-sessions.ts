import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { listConnectSessions } from '../../../domain/consent/sessions.js';
import type { Gateway } from '../../../domain/gateway.js';
import { listPrincipal } from '../../../domain/principals.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const listSessions = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/connect/sessions',
  options: {
    response: answers({ 200: records.connectSessionList }),
    plugins: { gateway: { userTokens: true } },
    validate: {
      query: Joi.object<{ cursor?: string; principal?: string; status?: 'pending' | 'completed' | 'expired' }>({
        cursor: fields.cursor(),
        principal: fields.principal(),
        status: fields.oneOf('pending', 'completed', 'expired'),
      }),
    },
  },
  async handler(request) {
    const caller = callerOf(request);
    const { query } = request;
    const page = await listConnectSessions(gateway, caller.organization.id, { ...query, principal: listPrincipal(caller, query.principal) });
    return { sessions: page.items, next_cursor: page.next_cursor };
  },
});
