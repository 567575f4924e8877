import { expect } from 'chai';
import type { ConnectionStatus } from '../../src/db/repos/connections.js';
import { grantsOfConnection } from '../../src/db/repos/grants.js';
import { createApiKey } from '../../src/domain/api-keys.js';
import { createOrganization } from '../../src/domain/organizations.js';
import { recordPrincipalUse } from '../../src/domain/principal-directory.js';
import { connectionIn } from '../support/builders.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** A connection to oidc-test, made at `at` (before the directory's own dates, so it moves none of them). */
function connect(h: Harness, organizationId: string, principal: string, status: ConnectionStatus, at = Date.UTC(2026, 0, 1)): Promise<string> {
  return connectionIn(h.gateway, { organizationId, principal, provider: 'oidc-test', status, at });
}

/**
 * A grant as the API should list it: that of a connection made at `at`, revoked (with its connection)
 * a second later when `state` is revoked.
 */
async function grantMadeAt(h: Harness, organizationId: string, principal: string, state: 'active' | 'revoked', at: number) {
  const scopes = ['openid', 'contacts.read'];
  const changedAt = at + 1000;
  const connectionId = await connectionIn(h.gateway, { organizationId, principal, provider: 'oidc-test', status: state, scopes, at, changedAt });
  const [grant] = await grantsOfConnection(h.gateway.db, connectionId);
  return {
    id: grant.id,
    principal,
    provider: 'oidc-test',
    connection_id: connectionId,
    scopes,
    state,
    created_at: new Date(at).toISOString(),
    updated_at: new Date(state === 'revoked' ? changedAt : at).toISOString(),
  };
}

async function otherOrganizationKey(h: Harness, name: string): Promise<{ id: string; key: string }> {
  const org = await createOrganization(h.gateway, `${name}-${h.dialect}`);
  return { id: org.id, key: (await createApiKey(h.gateway, org.id, 'member')).key };
}

eachDialect('principal directory', (h) => {
  it('records first and last use with one upsert, never moving last_seen_at back, inside a transaction too', async () => {
    const org = await otherOrganizationKey(h(), 'directory');
    const { db } = h().gateway;
    await recordPrincipalUse(db, org.id, 'user:a', 1000);
    await recordPrincipalUse(db, org.id, 'user:a', 3000);
    await recordPrincipalUse(db, org.id, 'user:a', 2000);
    await db.transaction((t) => recordPrincipalUse(t, org.id, 'user:b', 5000));
    const rows = await db.select('SELECT principal, first_seen_at, last_seen_at FROM principals WHERE organization_id = $1 ORDER BY principal', [org.id]);
    expect(rows).to.deep.equal([
      { principal: 'user:a', first_seen_at: 1000, last_seen_at: 3000 },
      { principal: 'user:b', first_seen_at: 5000, last_seen_at: 5000 },
    ]);
  });

  it('lists principals exactly {principal, first_seen_at, last_seen_at, connections}, counting connections that are not revoked', async () => {
    const org = await otherOrganizationKey(h(), 'listing');
    const { db } = h().gateway;
    await recordPrincipalUse(db, org.id, 'user:ada', Date.UTC(2026, 0, 1));
    await recordPrincipalUse(db, org.id, 'user:ada', Date.UTC(2026, 0, 2));
    await recordPrincipalUse(db, org.id, 'organization', Date.UTC(2026, 0, 3));
    await connect(h(), org.id, 'user:ada', 'active');
    await connect(h(), org.id, 'user:ada', 'needs_reauth');
    await connect(h(), org.id, 'user:ada', 'revoked');
    await connect(h(), h().organizationId, 'user:ada', 'active');

    const res = await h().request({ method: 'GET', url: '/v1/principals', headers: bearer(org.key) });
    expect(res.statusCode).to.equal(200);
    expect(res.json).to.deep.equal({
      principals: [
        { principal: 'organization', first_seen_at: '2026-01-03T00:00:00.000Z', last_seen_at: '2026-01-03T00:00:00.000Z', connections: 0 },
        { principal: 'user:ada', first_seen_at: '2026-01-01T00:00:00.000Z', last_seen_at: '2026-01-02T00:00:00.000Z', connections: 2 },
      ],
      next_cursor: null,
    });
  });

  it('enters principals named by token issue', async () => {
    const before = Date.now();
    expect((await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:issued' } })).statusCode).to.equal(201);
    const listed = (await h().request({ method: 'GET', url: '/v1/principals?q=issued' })).json.principals;
    expect(listed).to.have.length(1);
    expect(listed[0].principal).to.equal('user:issued');
    expect(Date.parse(listed[0].first_seen_at)).to.be.within(before, Date.now());
  });

  it('filters with q: any part of the principal, case-insensitive, % and _ taken literally', async () => {
    const org = await otherOrganizationKey(h(), 'search');
    for (const principal of ['user:Ada.Lovelace', 'user:grace', 'user:a_b', 'user:axb', 'user:100%', 'user:1000']) {
      await recordPrincipalUse(h().gateway.db, org.id, principal, Date.now());
    }
    const search = async (q: string) =>
      (await h().request({ method: 'GET', url: `/v1/principals?q=${encodeURIComponent(q)}`, headers: bearer(org.key) })).json.principals.map(
        (p: { principal: string }) => p.principal,
      );
    expect(await search('lovelace')).to.deep.equal(['user:Ada.Lovelace']);
    expect(await search('ADA.')).to.deep.equal(['user:Ada.Lovelace']);
    expect(await search('a_b')).to.deep.equal(['user:a_b']);
    expect(await search('0%')).to.deep.equal(['user:100%']);
    expect(await search('nobody')).to.deep.equal([]);
    expect((await search('user:')).length).to.equal(6);
  });

  it('pages in principal order with the house cursor', async () => {
    const org = await otherOrganizationKey(h(), 'paging');
    const names = Array.from({ length: 53 }, (_, i) => `user:p${String(i).padStart(3, '0')}`);
    for (const principal of [...names].reverse()) await recordPrincipalUse(h().gateway.db, org.id, principal, Date.now());
    const first = await h().request({ method: 'GET', url: '/v1/principals', headers: bearer(org.key) });
    expect(first.json.principals.map((p: { principal: string }) => p.principal)).to.deep.equal(names.slice(0, 50));
    expect(first.json.next_cursor).to.be.a('string');
    const second = await h().request({ method: 'GET', url: `/v1/principals?cursor=${first.json.next_cursor}`, headers: bearer(org.key) });
    expect(second.json.principals.map((p: { principal: string }) => p.principal)).to.deep.equal(names.slice(50));
    expect(second.json.next_cursor).to.equal(null);
    const filtered = await h().request({ method: 'GET', url: `/v1/principals?q=p05&cursor=${first.json.next_cursor}`, headers: bearer(org.key) });
    expect(filtered.json.principals.map((p: { principal: string }) => p.principal)).to.deep.equal(['user:p050', 'user:p051', 'user:p052']);
  });

  it('pages through principals of the longest allowed length', async () => {
    const org = await otherOrganizationKey(h(), 'long');
    const names = Array.from({ length: 51 }, (_, i) => `user:${String(i).padStart(3, '0')}${'x'.repeat(125)}`);
    for (const principal of names) await recordPrincipalUse(h().gateway.db, org.id, principal, Date.now());
    const first = await h().request({ method: 'GET', url: '/v1/principals', headers: bearer(org.key) });
    const second = await h().request({ method: 'GET', url: `/v1/principals?cursor=${first.json.next_cursor}`, headers: bearer(org.key) });
    expect(second.statusCode).to.equal(200);
    expect(second.json.principals.map((p: { principal: string }) => p.principal)).to.deep.equal([names[50]]);
  });

  it('answers bad queries with 400 invalid_input', async () => {
    problem(await h().request({ method: 'GET', url: `/v1/principals?q=${'x'.repeat(141)}` }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: '/v1/principals?q=' }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: '/v1/principals?q=a%00b' }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: '/v1/principals?cursor=bm9wZQ' }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: '/v1/principals?state=active' }), 400, 'invalid_input');
    expect((await h().request({ method: 'GET', url: `/v1/principals?q=${'x'.repeat(140)}` })).statusCode).to.equal(200);
  });
});

eachDialect('grants', (h) => {
  it('lists grants newest first, exactly {id, principal, provider, connection_id, scopes, state, created_at, updated_at}', async () => {
    const org = await otherOrganizationKey(h(), 'grants');
    const older = await grantMadeAt(h(), org.id, 'user:ada', 'revoked', Date.UTC(2026, 0, 1));
    const newer = await grantMadeAt(h(), org.id, 'user:bob', 'active', Date.UTC(2026, 0, 2));
    await grantMadeAt(h(), h().organizationId, 'user:ada', 'active', Date.UTC(2026, 0, 3));
    const res = await h().request({ method: 'GET', url: '/v1/grants', headers: bearer(org.key) });
    expect(res.statusCode).to.equal(200);
    expect(res.json).to.deep.equal({ grants: [newer, older], next_cursor: null });
  });

  it('filters by principal and state', async () => {
    const org = await otherOrganizationKey(h(), 'filters');
    const a1 = await grantMadeAt(h(), org.id, 'user:ada', 'active', Date.UTC(2026, 1, 1));
    const a2 = await grantMadeAt(h(), org.id, 'user:ada', 'revoked', Date.UTC(2026, 1, 2));
    const b1 = await grantMadeAt(h(), org.id, 'user:bob', 'active', Date.UTC(2026, 1, 3));
    const ids = async (query: string) =>
      (await h().request({ method: 'GET', url: `/v1/grants?${query}`, headers: bearer(org.key) })).json.grants.map((g: { id: string }) => g.id);
    expect(await ids('principal=user:ada')).to.deep.equal([a2.id, a1.id]);
    expect(await ids('state=active')).to.deep.equal([b1.id, a1.id]);
    expect(await ids('state=revoked')).to.deep.equal([a2.id]);
    expect(await ids('principal=user:ada&state=active')).to.deep.equal([a1.id]);
    expect(await ids('principal=organization')).to.deep.equal([]);
  });

  it('pages with next_cursor', async () => {
    const org = await otherOrganizationKey(h(), 'grant-pages');
    const start = Date.UTC(2026, 2, 1);
    const made = [];
    for (let i = 0; i < 52; i++) made.push(await grantMadeAt(h(), org.id, 'user:ada', 'active', start + i * 1000));
    const first = await h().request({ method: 'GET', url: '/v1/grants', headers: bearer(org.key) });
    expect(first.json.grants).to.have.length(50);
    expect(first.json.grants[0].id).to.equal(made[51].id);
    const second = await h().request({ method: 'GET', url: `/v1/grants?cursor=${first.json.next_cursor}`, headers: bearer(org.key) });
    expect(second.json.grants.map((g: { id: string }) => g.id)).to.deep.equal([made[1].id, made[0].id]);
    expect(second.json.next_cursor).to.equal(null);
  });

  it('answers bad queries with 400 invalid_input', async () => {
    for (const query of ['state=pending', 'principal=ada', `principal=user:${'x'.repeat(129)}`, 'cursor=bm9wZQ', 'q=ada']) {
      problem(await h().request({ method: 'GET', url: `/v1/grants?${query}` }), 400, 'invalid_input');
    }
  });

  it('is open to every key role and closed to principal-bound tokens (403 role_forbidden)', async () => {
    for (const role of ['member', 'admin'] as const) {
      const key = await h().keyWithRole(role);
      expect((await h().request({ method: 'GET', url: '/v1/grants', headers: bearer(key) })).statusCode).to.equal(200);
      expect((await h().request({ method: 'GET', url: '/v1/principals', headers: bearer(key) })).statusCode).to.equal(200);
    }
    const token = (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } })).json.token;
    problem(await h().request({ method: 'GET', url: '/v1/grants', headers: bearer(token) }), 403, 'role_forbidden');
    problem(await h().request({ method: 'GET', url: '/v1/grants?principal=user:ada', headers: bearer(token) }), 403, 'role_forbidden');
    problem(await h().request({ method: 'GET', url: '/v1/principals', headers: bearer(token) }), 403, 'role_forbidden');
  });
});
