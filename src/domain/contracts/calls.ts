import Joi from 'joi';
import type { CallFilters } from '../audit/calls.js';
import { CALL_OUTCOMES } from '../audit/outcomes.js';
import { fields } from './fields.js';

/** A page of the audit's calls, filtered: GET /v1/calls, `gateway calls list` and (without the cursor) `gateway calls tail`. */
export const callQuery = Joi.object<CallFilters & { cursor?: string }>({
  cursor: fields.cursor(),
  task: fields.text(100),
  provider: fields.text(100),
  principal: fields.principal(),
  outcome: fields.oneOf(...CALL_OUTCOMES),
  token: fields.text(100),
  connection: fields.text(100),
  tag: fields.text(200),
});
