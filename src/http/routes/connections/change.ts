import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { changeConnection, type ConnectionChange } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

const connectionChange = Joi.object<ConnectionChange>({
  label: fields.text(320).allow(null),
  default: Joi.boolean().valid(true).messages({ 'any.only': '"default" can only be set to true; make another connection the default instead' }),
})
  .min(1)
  .required();

export const changeConnectionRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'PATCH',
  path: '/v1/connections/{id}',
  options: { response: answers({ 200: records.connection }), plugins: { openapi: { errors: ['connection_not_found'] } }, validate: { params: fields.idParams(), payload: connectionChange } },
  handler: (request) => changeConnection(gateway, callerOf(request), request.params.id, request.payload),
});
