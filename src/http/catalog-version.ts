import type { Boom } from '@hapi/boom';
import type { ResponseObject, Server } from '@hapi/hapi';

export const CATALOG_VERSION_HEADER = 'svc-catalog-version';

/** Every response, errors included, names the catalog version it was served with (docs/api.md). */
export function registerCatalogVersion(server: Server, version: string): void {
  server.ext('onPreResponse', (request, h) => {
    const response = request.response as ResponseObject | Boom;
    if ('isBoom' in response && response.isBoom) response.output.headers[CATALOG_VERSION_HEADER] = version;
    else (response as ResponseObject).header(CATALOG_VERSION_HEADER, version);
    return h.continue;
  });
}
