import type { ServerRoute } from '@hapi/hapi';
import { findActiveTask, findProvider } from '../../../domain/catalog/query.js';
import { presentTask } from '../../../domain/catalog/present.js';
import type { Gateway } from '../../../domain/gateway.js';
import { actingPrincipal } from '../../../domain/principals.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { principalHeader } from '../../headers.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const getTaskRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/tasks/{id}',
  options: {
    response: answers({ 200: records.task }),
    plugins: { gateway: { userTokens: true }, openapi: { errors: ['task_not_found', 'task_retired', 'task_broken'] } },
    validate: {
      params: fields.idParams(),
      headers: principalHeader(),
    },
  },
  handler(request) {
    actingPrincipal(callerOf(request), request.headers['svc-principal']);
    const task = findActiveTask(gateway.catalog, request.params.id);
    return presentTask(task, findProvider(gateway.catalog, task.provider));
  },
});
