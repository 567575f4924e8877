import type { ServerRoute } from '@hapi/hapi';
import { readApprovalPolicy, setApprovalPolicy } from '../../../domain/approvals/policy.js';
import { approvalPolicy } from '../../../domain/contracts/approvals.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const getApprovalPolicy = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/approval-policy',
  options: { response: answers({ 200: records.approvalPolicy }), plugins: { gateway: { role: 'admin' } } },
  handler: (request) => readApprovalPolicy(gateway, callerOf(request).organization.id),
});

/** Replaces the policy: members left out are empty (`{}` turns approvals off). */
export const putApprovalPolicy = (gateway: Gateway): ServerRoute => operation({
  method: 'PUT',
  path: '/v1/approval-policy',
  options: {
    response: answers({ 200: records.approvalPolicy }),
    plugins: { gateway: { role: 'admin' } },
    validate: { payload: approvalPolicy.required() },
  },
  handler: (request) => setApprovalPolicy(gateway, callerOf(request).organization.id, request.payload),
});
