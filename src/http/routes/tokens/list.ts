import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { listHeldTokens } from '../../../domain/tokens.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const listTokens = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/tokens',
  options: { response: answers({ 200: records.heldTokens }), validate: { query: fields.pageQuery() } },
  handler: (request) => listHeldTokens(gateway, callerOf(request).organization.id, request.query.cursor),
});
