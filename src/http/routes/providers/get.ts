import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { findProvider, taskCount } from '../../../domain/catalog/query.js';
import { presentProvider } from '../../../domain/catalog/present.js';
import type { Gateway } from '../../../domain/gateway.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const getProviderRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/providers/{slug}',
  options: { response: answers({ 200: records.providerSummary }), plugins: { openapi: { errors: ['provider_not_found'] } }, validate: { params: Joi.object<{ slug: string }>({ slug: fields.pathId().required() }) } },
  handler(request) {
    const provider = findProvider(gateway.catalog, request.params.slug);
    return presentProvider(provider, taskCount(gateway.catalog, provider.slug));
  },
});
