import Joi from 'joi';
import { TASK_KINDS } from '../catalog/types.js';
import type { ApprovalPolicy } from '../approvals/policy.js';
import { USD_DECIMAL } from '../run/request.js';
import { fields } from './fields.js';

/** A task id pattern: task id characters, `*` standing for any run of them (`stripe.refunds.*`). */
const TASK_PATTERN = /^[A-Za-z0-9._*-]+$/;

/**
 * The approval policy, as PUT /v1/approval-policy takes it and `gateway approvals policy` builds it: each
 * member optional, the whole replacing the policy.
 */
export const approvalPolicy = Joi.object<ApprovalPolicy>({
  kinds: Joi.array().items(fields.oneOf(...TASK_KINDS)).max(TASK_KINDS.length).unique().description('task kinds whose runs need approval'),
  tasks: Joi.array()
    .items(fields.text(200).pattern(TASK_PATTERN).messages({ 'string.pattern.base': '{{#label}} must be a task id pattern such as stripe.refunds.*' }))
    .max(100)
    .unique()
    .description('task id patterns whose runs need approval; * stands for any characters'),
  over_usd: Joi.number().min(0).max(1_000_000).allow(null).custom((value: number | null, helpers) =>
    value === null || USD_DECIMAL.test(String(value)) ? value : helpers.error('number.precision', { limit: 6 }),
  ).description('with it, only runs quoted above this USD price need approval; null or absent: any price'),
});
