import type { ServerRoute } from '@hapi/hapi';
import { findCapability } from '../../../domain/catalog/query.js';
import { presentTaskSummary } from '../../../domain/catalog/present.js';
import type { Gateway } from '../../../domain/gateway.js';
import { actingPrincipal } from '../../../domain/principals.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { principalHeader } from '../../headers.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

/** A capability and its routes: the tasks of every provider that can do the job, in catalog order. */
export const getCapabilityRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/capabilities/{id}',
  options: {
    response: answers({ 200: records.capability }),
    plugins: { gateway: { userTokens: true }, openapi: { errors: ['capability_not_found'] } },
    validate: {
      params: fields.idParams(),
      headers: principalHeader(),
    },
  },
  handler(request) {
    actingPrincipal(callerOf(request), request.headers['svc-principal']);
    const capability = findCapability(gateway.catalog, request.params.id);
    return { id: capability.id, tasks: capability.tasks.map(presentTaskSummary) };
  },
});
