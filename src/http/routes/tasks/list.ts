import type { ServerRoute } from '@hapi/hapi';
import { listTasks } from '../../../domain/catalog/query.js';
import { taskQuery } from '../../../domain/contracts/tasks.js';
import { presentTaskSummary } from '../../../domain/catalog/present.js';
import type { Gateway } from '../../../domain/gateway.js';
import { actingPrincipal } from '../../../domain/principals.js';
import { callerOf } from '../../auth.js';
import { principalHeader } from '../../headers.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const listTasksRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/tasks',
  options: {
    response: answers({ 200: records.taskPage }),
    plugins: { gateway: { userTokens: true } },
    validate: {
      headers: principalHeader(),
      query: taskQuery,
    },
  },
  handler(request) {
    actingPrincipal(callerOf(request), request.headers['svc-principal']);
    const { cursor, ...filters } = request.query;
    const page = listTasks(gateway.catalog, filters, cursor);
    return { tasks: page.items.map(presentTaskSummary), next_cursor: page.next_cursor };
  },
});
