import type { ServerRoute } from '@hapi/hapi';
import { listApprovals } from '../../../domain/approvals/approvals.js';
import { fields } from '../../../domain/contracts/fields.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const listApprovalsRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/approvals',
  options: { response: answers({ 200: records.approvals }), validate: { query: fields.pageQuery() } },
  handler: (request) => listApprovals(gateway, callerOf(request).organization.id, request.query.cursor),
});
