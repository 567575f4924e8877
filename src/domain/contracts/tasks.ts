import Joi from 'joi';
import type { TaskFilters } from '../catalog/query.js';
import { TASK_KINDS } from '../catalog/types.js';
import { fields } from './fields.js';

/** A page of the catalog's tasks, filtered: GET /v1/tasks and `gateway catalog list`. */
export const taskQuery = Joi.object<TaskFilters & { cursor?: string }>({
  cursor: fields.cursor(),
  provider: fields.text(100),
  capability: fields.text(100),
  kind: fields.oneOf(...TASK_KINDS),
  q: fields.text(200),
});
