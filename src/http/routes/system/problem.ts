import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { GatewayError } from '../../../domain/errors.js';
import { isErrorCode, problemPage } from '../../../hosted/problem.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';
import { sendPage } from '../hosted/respond.js';

/** GET /problems/{code}: where a problem's `type` leads, a short page on what the code means and what to do. */
export const problem = (): ServerRoute => operation({
  method: 'GET',
  path: '/problems/{code}',
  options: {
    auth: false,
    response: answers({ 200: records.page }),
    description: 'What an error code means and what to do about it (the page a problem\'s type URL answers)',
    plugins: { openapi: { errors: ['route_not_found'] } },
    validate: { params: Joi.object<{ code: string }>({ code: Joi.string().max(60).required() }) },
  },
  handler(request, h) {
    const { code } = request.params;
    if (!isErrorCode(code)) throw new GatewayError('route_not_found', `no error code ${code}`);
    return sendPage(h, problemPage(code)).header('Cache-Control', 'public, max-age=3600');
  },
});
