import { expect } from 'chai';
import { revokeApiKey } from '../../src/domain/api-keys.js';
import { errorCodes } from '../../src/domain/errors.js';
import { setOrganizationStatus, setTrustedOrigins } from '../../src/domain/organizations.js';
import { eachDialect, problem } from '../support/harness.js';

eachDialect('system routes and callers', (h) => {
  it('answers /health with 204 and an empty body', async () => {
    const res = await h().request({ method: 'GET', url: '/health', headers: { authorization: null } });
    expect(res.statusCode).to.equal(204);
    expect(res.payload).to.equal('');
  });

  it('describes the caller on /v1/me', async () => {
    const res = await h().request({ method: 'GET', url: '/v1/me' });
    expect(res.statusCode).to.equal(200);
    expect(res.json.organization.name).to.equal('default');
    expect(res.json.kind).to.equal('api_key');
    expect(res.json.key.role).to.equal('owner');
    expect(res.json.principal).to.equal('organization');
  });

  it('answers 401 unauthenticated without a bearer credential', async () => {
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: { authorization: null } }), 401, 'unauthenticated');
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: { authorization: 'Basic abc' } }), 401, 'unauthenticated');
  });

  it('answers 401 invalid_token for unknown and revoked keys', async () => {
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: { authorization: 'Bearer gw_live_nope' } }), 401, 'invalid_token');
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: { authorization: 'Bearer something' } }), 401, 'invalid_token');
    const key = await h().keyWithRole('member');
    const id = (await h().request({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } })).json.key.id;
    await revokeApiKey(h().gateway, h().organizationId, id);
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } }), 401, 'invalid_token');
  });

  it('answers 403 no_active_organization while the organization is suspended', async () => {
    const { gateway } = h();
    await setOrganizationStatus(gateway, 'default', 'suspended');
    try {
      problem(await h().request({ method: 'GET', url: '/v1/me' }), 403, 'no_active_organization');
    } finally {
      await setOrganizationStatus(gateway, 'default', 'active');
    }
  });

  it('answers 403 untrusted_origin for an Origin not on the trusted list, and passes trusted ones', async () => {
    const { gateway } = h();
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: { origin: 'https://evil.example' } }), 403, 'untrusted_origin');
    await setTrustedOrigins(gateway, 'default', ['https://app.example']);
    try {
      expect((await h().request({ method: 'GET', url: '/v1/me', headers: { origin: 'https://app.example' } })).statusCode).to.equal(200);
      problem(await h().request({ method: 'GET', url: '/v1/me', headers: { origin: 'https://evil.example' } }), 403, 'untrusted_origin');
    } finally {
      await setTrustedOrigins(gateway, 'default', []);
    }
  });

  it('answers unknown routes with 404 route_not_found problem+json', async () => {
    problem(await h().request({ method: 'GET', url: '/v1/nothing-here' }), 404, 'route_not_found');
    problem(await h().request({ method: 'DELETE', url: '/health' }), 404, 'route_not_found');
  });

  it("answers every problem's type URL with a short page on its code; an unknown code is 404", async () => {
    const body = problem(await h().request({ method: 'GET', url: '/v1/nothing-here' }), 404, 'route_not_found');
    expect(body.type).to.equal('http://gateway.test/problems/route_not_found');
    for (const code of Object.keys(errorCodes)) {
      const page = await h().request({ method: 'GET', url: `/problems/${code}`, headers: { authorization: null } });
      expect(page.statusCode, code).to.equal(200);
      expect(String(page.headers['content-type'])).to.match(/^text\/html/);
      expect(page.payload).to.include(`<code>${code}</code>`).and.include(errorCodes[code as keyof typeof errorCodes][1]);
    }
    problem(await h().request({ method: 'GET', url: '/problems/no_such_code', headers: { authorization: null } }), 404, 'route_not_found');
  });

  it('answers unknown query parameters with 400 invalid_input naming them', async () => {
    const body = problem(await h().request({ method: 'GET', url: '/v1/me?surprise=1' }), 400, 'invalid_input');
    expect(body.invalid_params).to.deep.equal([{ name: 'query.surprise', reason: '"surprise" is not allowed' }]);
  });

  it('answers a database outage on /health with 500 internal_error and no detail of the cause', async function () {
    const { createHarness } = await import('../support/harness.js');
    const other = await createHarness(h().dialect);
    await other.gateway.db.close();
    const res = await other.request({ method: 'GET', url: '/health', headers: { authorization: null } });
    problem(res, 500, 'internal_error');
    expect(res.payload).to.not.match(/SQL|sequelize|at \w+ \(/i);
    await other.server.stop();
    await other.database.drop();
  });
});

eachDialect('browser callers', (h) => {
  it('answers a CORS preflight for the run headers without credentials', async () => {
    const res = await h().request({
      method: 'OPTIONS',
      url: '/v1/me',
      headers: { authorization: null, origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, svc-principal, svc-approval' },
    });
    expect(res.statusCode).to.equal(200);
    expect(String(res.headers['access-control-allow-headers'])).to.include('svc-principal').and.include('svc-approval');
    expect(String(res.headers['access-control-allow-origin'])).to.be.oneOf(['*', 'https://app.example']);
  });
});
