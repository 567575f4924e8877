import { expect } from 'chai';
import { createOrganization, setOrganizationStatus } from '../../src/domain/organizations.js';
import { hashSecret } from '../../src/domain/secrets.js';
import { issueUserToken } from '../../src/domain/tokens.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';
import { fromStartOfMinute } from '../support/clock.js';
import { storedRow } from '../support/storage.js';

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function keyId(h: Harness, key: string): Promise<string> {
  return (await h.request({ method: 'GET', url: '/v1/me', headers: bearer(key) })).json.key.id;
}

eachDialect('principal-bound tokens: issue, list, revoke', (h) => {
  it('issues a token: 201 with exactly {id, token, principal, expires_at}, default lifetime one hour', async () => {
    const before = Date.now();
    const res = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } });
    expect(res.statusCode).to.equal(201);
    expect(res.json).to.have.all.keys('id', 'token', 'principal', 'expires_at');
    expect(res.json.id).to.match(/^tok_[0-9a-z]{26}$/);
    expect(res.json.token).to.match(/^gw_user_[A-Za-z0-9_-]{43}$/);
    expect(res.json.principal).to.equal('user:ada');
    const expires = Date.parse(res.json.expires_at);
    expect(new Date(expires).toISOString()).to.equal(res.json.expires_at);
    expect(expires).to.be.within(before + 3600_000, Date.now() + 3600_000);
  });

  it('honours expires_in at both bounds', async () => {
    for (const seconds of [60, 86400]) {
      const before = Date.now();
      const res = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'organization', expires_in: seconds } });
      expect(res.statusCode).to.equal(201);
      expect(res.json.principal).to.equal('organization');
      expect(Date.parse(res.json.expires_at)).to.be.within(before + seconds * 1000, Date.now() + seconds * 1000);
    }
  });

  it('stores only the hash of the token', async () => {
    const res = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:hash-check' } });
    const row = await storedRow(h().gateway.db, 'user_tokens', res.json.id);
    expect(row).to.not.equal(undefined);
    expect(row!.token_hash).to.equal(hashSecret(res.json.token));
    expect(JSON.stringify(row)).to.not.include(res.json.token.slice('gw_user_'.length));
  });

  it('answers bad requests with 400 invalid_input naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'payload.principal'],
      [{ principal: 'ada' }, 'payload.principal'],
      [{ principal: 'user:' }, 'payload.principal'],
      [{ principal: `user:${'x'.repeat(129)}` }, 'payload.principal'],
      [{ principal: 'user:a\u0000b' }, 'payload.principal'],
      [{ principal: 'user:ada', expires_in: 59 }, 'payload.expires_in'],
      [{ principal: 'user:ada', expires_in: 86401 }, 'payload.expires_in'],
      [{ principal: 'user:ada', expires_in: 90.5 }, 'payload.expires_in'],
      [{ principal: 'user:ada', expires_in: '3600' }, 'payload.expires_in'],
      [{ principal: 'user:ada', scope: 'all' }, 'payload.scope'],
    ];
    for (const [payload, name] of cases) {
      const body = problem(await h().request({ method: 'POST', url: '/v1/tokens', payload: payload as object }), 400, 'invalid_input');
      expect(body.invalid_params.map((p: { name: string }) => p.name), JSON.stringify(payload)).to.include(name);
    }
    problem(await h().request({ method: 'POST', url: '/v1/tokens' }), 400, 'invalid_input');
    problem(await h().request({ method: 'POST', url: '/v1/tokens', payload: '[1]', headers: { 'content-type': 'application/json' } }), 400, 'invalid_input');
  });

  it('lets every key role issue; issued_by is the issuing key id', async () => {
    for (const role of ['member', 'admin'] as const) {
      const key = await h().keyWithRole(role);
      const res = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: `user:by-${role}` }, headers: bearer(key) });
      expect(res.statusCode).to.equal(201);
      const list = await h().request({ method: 'GET', url: '/v1/tokens', headers: bearer(key) });
      expect(list.json.tokens.find((t: { id: string }) => t.id === res.json.id).issued_by).to.equal(await keyId(h(), key));
    }
  });

  it('lists live tokens only, newest first, exactly {id, principal, expires_at, issued_by}', async () => {
    const { gateway } = h();
    const org = h().organizationId;
    const expired = await issueUserToken(gateway, org, { principal: 'user:old', expires_in: 60 }, 'cli', Date.now() - 120_000);
    const revoked = (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:gone' } })).json;
    expect((await h().request({ method: 'DELETE', url: `/v1/tokens/${revoked.id}` })).statusCode).to.equal(204);
    const live = (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:live', expires_in: 120 } })).json;

    const res = await h().request({ method: 'GET', url: '/v1/tokens' });
    expect(res.statusCode).to.equal(200);
    expect(res.json).to.have.all.keys('tokens', 'next_cursor');
    expect(res.json.next_cursor).to.equal(null);
    const ids = res.json.tokens.map((t: { id: string }) => t.id);
    expect(ids).to.not.include(expired.id);
    expect(ids).to.not.include(revoked.id);
    expect(ids[0]).to.equal(live.id);
    expect(res.json.tokens[0]).to.deep.equal({
      id: live.id,
      principal: 'user:live',
      expires_at: live.expires_at,
      issued_by: await keyId(h(), h().ownerKey),
    });
    expect([...ids].sort().reverse()).to.deep.equal(ids);
  });

  it('pages with next_cursor and refuses a cursor it did not issue', async () => {
    const other = await createOrganization(h().gateway, `paging-${h().dialect}`);
    for (let i = 0; i < 53; i++) await issueUserToken(h().gateway, other.id, { principal: `user:p${i}` }, 'cli');
    const key = (await import('../../src/domain/api-keys.js')).createApiKey;
    const { key: otherKey } = await key(h().gateway, other.id, 'member');
    const first = await h().request({ method: 'GET', url: '/v1/tokens', headers: bearer(otherKey) });
    expect(first.json.tokens).to.have.length(50);
    expect(first.json.next_cursor).to.be.a('string');
    const second = await h().request({ method: 'GET', url: `/v1/tokens?cursor=${first.json.next_cursor}`, headers: bearer(otherKey) });
    expect(second.json.tokens).to.have.length(3);
    expect(second.json.next_cursor).to.equal(null);
    const all = [...first.json.tokens, ...second.json.tokens].map((t: { principal: string }) => t.principal);
    expect(new Set(all).size).to.equal(53);
    expect(all[0]).to.equal('user:p52');
    expect(second.json.tokens.every((t: { issued_by: string }) => t.issued_by === 'cli')).to.equal(true);
    problem(await h().request({ method: 'GET', url: '/v1/tokens?cursor=bm9wZQ' }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: `/v1/tokens?cursor=${'x'.repeat(101)}` }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: '/v1/tokens?principal=user:ada' }), 400, 'invalid_input');
  });

  it('revokes with 204 and an empty body; unknown, revoked, expired and other organizations\' tokens are 404 token_not_found', async () => {
    const { gateway } = h();
    const token = (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:revoke-me' } })).json;
    const res = await h().request({ method: 'DELETE', url: `/v1/tokens/${token.id}` });
    expect(res.statusCode).to.equal(204);
    expect(res.payload).to.equal('');
    problem(await h().request({ method: 'DELETE', url: `/v1/tokens/${token.id}` }), 404, 'token_not_found');
    problem(await h().request({ method: 'DELETE', url: '/v1/tokens/tok_unknown' }), 404, 'token_not_found');
    const expired = await issueUserToken(gateway, h().organizationId, { principal: 'user:old', expires_in: 60 }, 'cli', Date.now() - 120_000);
    problem(await h().request({ method: 'DELETE', url: `/v1/tokens/${expired.id}` }), 404, 'token_not_found');
    const other = await createOrganization(gateway, `other-${h().dialect}`);
    const foreign = await issueUserToken(gateway, other.id, { principal: 'user:ada' }, 'cli');
    problem(await h().request({ method: 'DELETE', url: `/v1/tokens/${foreign.id}` }), 404, 'token_not_found');
    expect((await h().request({ method: 'GET', url: '/v1/me', headers: bearer(foreign.token) })).statusCode).to.equal(200);
    problem(await h().request({ method: 'DELETE', url: `/v1/tokens/${'x'.repeat(101)}` }), 400, 'invalid_input');
  });
});

eachDialect('principal-bound tokens: what a token may do', (h) => {
  const issue = async (principal: string, expires_in?: number) =>
    (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal, expires_in } })).json as { id: string; token: string };

  it('authenticates on GET /v1/me as its principal', async () => {
    const token = await issue('user:ada');
    const res = await h().request({ method: 'GET', url: '/v1/me', headers: bearer(token.token) });
    expect(res.statusCode).to.equal(200);
    expect(res.json.kind).to.equal('user_token');
    expect(res.json.principal).to.equal('user:ada');
    expect(res.json.token.id).to.equal(token.id);
    expect(res.json.organization.id).to.equal(h().organizationId);
  });

  it('stops working the moment it is revoked: 401 invalid_token', async () => {
    const token = await issue('user:ada');
    expect((await h().request({ method: 'GET', url: '/v1/me', headers: bearer(token.token) })).statusCode).to.equal(200);
    expect((await h().request({ method: 'DELETE', url: `/v1/tokens/${token.id}` })).statusCode).to.equal(204);
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: bearer(token.token) }), 401, 'invalid_token');
  });

  it('stops working once expired: 401 invalid_token', async () => {
    const expired = await issueUserToken(h().gateway, h().organizationId, { principal: 'user:ada', expires_in: 60 }, 'cli', Date.now() - 60_001);
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: bearer(expired.token) }), 401, 'invalid_token');
    problem(await h().request({ method: 'GET', url: '/v1/me', headers: bearer(`${expired.token}x`) }), 401, 'invalid_token');
  });

  it('cannot issue, list or revoke tokens: 403 role_forbidden', async () => {
    const token = await issue('user:ada');
    const headers = bearer(token.token);
    problem(await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' }, headers }), 403, 'role_forbidden');
    problem(await h().request({ method: 'GET', url: '/v1/tokens', headers }), 403, 'role_forbidden');
    problem(await h().request({ method: 'DELETE', url: `/v1/tokens/${token.id}`, headers }), 403, 'role_forbidden');
    expect((await h().request({ method: 'GET', url: '/v1/me', headers })).statusCode).to.equal(200);
  });

  it('acts only as its own principal where a route names one: 403 principal_forbidden for any other', async () => {
    const headers = bearer((await issue('user:ada')).token);
    expect((await h().request({ method: 'GET', url: '/v1/tasks', headers })).statusCode).to.equal(200);
    expect((await h().request({ method: 'GET', url: '/v1/tasks', headers: { ...headers, 'svc-principal': 'user:ada' } })).statusCode).to.equal(200);
    for (const other of ['user:bob', 'organization']) {
      problem(await h().request({ method: 'GET', url: '/v1/tasks', headers: { ...headers, 'svc-principal': other } }), 403, 'principal_forbidden');
      problem(await h().request({ method: 'GET', url: `/v1/connections?principal=${other}`, headers }), 403, 'principal_forbidden');
    }
    expect((await h().request({ method: 'GET', url: '/v1/connections?principal=user:ada', headers })).statusCode).to.equal(200);
  });

  it('cannot call the organization\'s setup and directory routes: 403 role_forbidden', async () => {
    const headers = bearer((await issue('user:ada')).token);
    for (const [method, url] of [
      ['GET', '/v1/principals'],
      ['GET', '/v1/grants'],
      ['GET', '/v1/connect/redirect-uris'],
      ['PUT', '/v1/connect/redirect-uris'],
      ['GET', '/v1/providers/github/oauth-app'],
      ['DELETE', '/v1/providers/github/oauth-app'],
    ]) {
      problem(await h().request({ method, url, headers, payload: method === 'PUT' ? { redirect_uris: [] } : undefined }), 403, 'role_forbidden');
    }
  });

  it('answers 403 no_active_organization while its organization is suspended', async () => {
    const token = await issue('user:ada');
    await setOrganizationStatus(h().gateway, 'default', 'suspended');
    try {
      problem(await h().request({ method: 'GET', url: '/v1/me', headers: bearer(token.token) }), 403, 'no_active_organization');
    } finally {
      await setOrganizationStatus(h().gateway, 'default', 'active');
    }
  });
});

eachDialect(
  'principal-bound tokens: rate limit',
  (h) => {
  fromStartOfMinute();
    it('answers the third issue in a minute with 429 rate_limited and Retry-After', async () => {
      for (let i = 0; i < 2; i++) {
        expect((await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } })).statusCode).to.equal(201);
      }
      const res = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } });
      problem(res, 429, 'rate_limited');
      expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
      expect((await h().request({ method: 'GET', url: '/v1/tokens' })).json.tokens).to.have.length(2);
    });
  },
  { config: { rate_limits: { tokens: 2 } } },
);
