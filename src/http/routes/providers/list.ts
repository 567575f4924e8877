import type { ServerRoute } from '@hapi/hapi';
import { listProviders, taskCount } from '../../../domain/catalog/query.js';
import { presentProvider } from '../../../domain/catalog/present.js';
import type { Gateway } from '../../../domain/gateway.js';
import { answers, records } from '../../records.js';

export const listProvidersRoute = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/providers',
  options: { response: answers({ 200: records.providerList }) },
  handler: () => ({
    providers: listProviders(gateway.catalog).map((provider) => presentProvider(provider, taskCount(gateway.catalog, provider.slug))),
  }),
});
