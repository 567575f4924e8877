import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { redirectAllowlist } from '../../../domain/contracts/redirect-uris.js';
import { getRedirectAllowlist, setRedirectAllowlist } from '../../../domain/redirect-uris.js';
import { callerOf } from '../../auth.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';

export const getRedirectUris = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/connect/redirect-uris',
  options: { response: answers({ 200: records.redirectAllowlist }) },
  handler: (request) => getRedirectAllowlist(gateway, callerOf(request).organization.id),
});

export const putRedirectUris = (gateway: Gateway): ServerRoute => operation({
  method: 'PUT',
  path: '/v1/connect/redirect-uris',
  options: {
    response: answers({ 200: records.redirectAllowlist }),
    plugins: { gateway: { role: 'admin' } },
    validate: {
      payload: redirectAllowlist.required(),
    },
  },
  handler: (request) =>
    setRedirectAllowlist(gateway, callerOf(request).organization.id, request.payload.redirect_uris),
});
