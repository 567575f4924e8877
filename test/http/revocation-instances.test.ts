import type { Server } from '@hapi/hapi';
import { expect } from 'chai';
import { openMigratedGateway } from '../../src/app/gateway.js';
import type { Gateway } from '../../src/domain/gateway.js';
import { createServer } from '../../src/http/server.js';
import { eachDialect } from '../support/harness.js';

/**
 * Authentication reads the key or token on every request (docs/security.md): a token revoked through one
 * instance is refused from the next request by that instance and by another one sharing the database.
 */
eachDialect('revocation seen by every instance', (h) => {
  let other: { gateway: Gateway; server: Server };

  before(async () => {
    const gateway = await openMigratedGateway(h().gateway.config);
    const server = await createServer(gateway, { port: 0 });
    await server.initialize();
    other = { gateway, server };
  });
  after(async () => {
    await other.server.stop();
    await other.gateway.db.close();
  });

  const meStatus = async (server: Server, token: string) =>
    (await server.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${token}` } })).statusCode;

  it('refuses a revoked token on the next request of the instance that revoked it and of the other', async () => {
    const issued = (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ann' } })).json;
    expect([await meStatus(h().server, issued.token), await meStatus(other.server, issued.token)]).to.deep.equal([200, 200]);
    expect((await h().request({ method: 'DELETE', url: `/v1/tokens/${issued.id}` })).statusCode).to.equal(204);
    expect([await meStatus(h().server, issued.token), await meStatus(other.server, issued.token)]).to.deep.equal([401, 401]);
  });
});
