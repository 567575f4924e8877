import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { listApprovalsRoute } from './list.js';
import { getApprovalPolicy, putApprovalPolicy } from './policy.js';

/**
 * The approval policy (owners and admins) and the approvals asked for. No route decides an approval: only the
 * end user's hosted page does (src/http/routes/hosted/approval.ts).
 */
export const approvalRoutes: Plugin<Gateway> = {
  name: 'approvals',
  register(server, gateway) {
    server.route([getApprovalPolicy(gateway), putApprovalPolicy(gateway), listApprovalsRoute(gateway)]);
  },
};
