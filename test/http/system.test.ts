import { expect } from 'chai';
import { POSTGRES_POOLS } from '../../src/db/direct.js';
import { revokeApiKey } from '../../src/domain/api-keys.js';
import { errorCodes } from '../../src/domain/errors.js';
import { setOrganizationStatus, setTrustedOrigins } from '../../src/domain/organizations.js';
import { issueUserToken } from '../../src/domain/tokens.js';
import { eachDialect, problem } from '../support/harness.js';

/** `answer` within `ms`, or a failure naming what it waited for (a probe queued behind held connections never answers). */
function within<T>(answer: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

eachDialect('system routes and callers', (h, dialect) => {
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

  it('answers credentials looked up at once (grouped into one read) each with its own caller, refusing the revoked, expired and unknown', async () => {
    const { gateway, organizationId } = h();
    const [member, admin, revoked] = await Promise.all(['member', 'admin', 'member'].map((role) => h().keyWithRole(role as 'member' | 'admin')));
    const revokedId = (await h().request({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${revoked}` } })).json.key.id;
    await revokeApiKey(gateway, organizationId, revokedId);
    const live = await issueUserToken(gateway, organizationId, { principal: 'user:ada', expires_in: 120 }, 'cli');
    const expired = await issueUserToken(gateway, organizationId, { principal: 'user:old', expires_in: 60 }, 'cli', Date.now() - 120_000);
    const bearers = [member, admin, revoked, 'gw_live_unknown', member, h().ownerKey, live.token, expired.token, live.token];
    const answers = await Promise.all(bearers.map((bearer) => h().request({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${bearer}` } })));
    expect(answers.map((answer) => answer.statusCode)).to.deep.equal([200, 200, 401, 401, 200, 200, 200, 401, 200]);
    expect(answers.map((answer) => answer.json.key?.role ?? answer.json.principal ?? answer.json.code)).to.deep.equal(
      ['member', 'admin', 'invalid_token', 'invalid_token', 'member', 'owner', 'user:ada', 'invalid_token', 'user:ada'],
    );
    expect(answers[0].json.key.id).to.equal(answers[4].json.key.id).and.not.equal(answers[1].json.key.id);
  });

  if (dialect === 'postgres') {
    it("answers /health and a key's /v1/me while every connection of the shared pool is held by a transaction", async () => {
      const { db } = h().gateway;
      const size = POSTGRES_POOLS.shared.max;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding = 0;
      let full!: () => void;
      const allHeld = new Promise<void>((resolve) => (full = resolve));
      const transactions = Array.from({ length: size }, () =>
        db.transaction(async () => {
          if (++holding === size) full();
          await released;
        }),
      );
      let sharedAnswered = false;
      try {
        await allHeld;
        const shared = db.select('SELECT 1').then(() => (sharedAnswered = true));
        const health = await within(h().request({ method: 'GET', url: '/health', headers: { authorization: null } }), 5000, '/health');
        const me = await within(h().request({ method: 'GET', url: '/v1/me' }), 5000, '/v1/me');
        expect(health.statusCode).to.equal(204);
        expect(me.statusCode).to.equal(200);
        // The shared pool was exhausted all along: a statement on it still waits.
        expect(sharedAnswered).to.equal(false);
        release();
        await shared;
      } finally {
        release();
        await Promise.all(transactions);
      }
    });
  }

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
