import { expect } from 'chai';
import { saveConsentedConnection } from '../../src/domain/connections/connections.js';
import { later } from '../support/clock.js';
import { eachDialect, type Harness } from '../support/harness.js';

const GATEWAY = 'http://gateway.test';

/** A connections page asked for by a principal-bound token lives no longer than that token. */
eachDialect('connections page of a principal-bound token', (h) => {
  let connectionId: string;

  before(async () => {
    const connection = await saveConsentedConnection(h().gateway, {
      organizationId: h().organizationId,
      principal: 'user:ada',
      provider: 'example-accounts',
      accountId: 'ada-account',
      label: 'Ada',
      credential: { type: 'oauth2', access_token: 'ada-access-token' },
      scopes: [],
    });
    connectionId = connection.id;
  });

  async function issueToken(expiresIn = 3600): Promise<{ id: string; token: string; expires_at: string }> {
    const res = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada', expires_in: expiresIn } });
    expect(res.statusCode, res.payload).to.equal(201);
    return res.json;
  }

  async function pageFor(token: string): Promise<{ url: string; expires_at: string }> {
    const res = await h().request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal: 'user:ada' }, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.payload).to.equal(201);
    return res.json;
  }

  const open = (url: string, cookie?: string) =>
    h().request({ method: 'GET', url: url.slice(GATEWAY.length), headers: { authorization: null, ...(cookie ? { cookie } : {}) } });

  /** The page's revoke form as this browser would post it (cookie, form token, our own origin). */
  async function revokeForm(url: string) {
    const page = await open(url);
    expect(page.statusCode).to.equal(200);
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    const form = /<form method="post" action="([^"]+)">\s*<input type="hidden" name="csrf" value="([^"]+)">/.exec(page.payload)!;
    return () =>
      h().request({
        method: 'POST',
        url: form[1],
        payload: `csrf=${encodeURIComponent(form[2])}&connection_id=${connectionId}`,
        headers: { authorization: null, cookie, origin: GATEWAY, 'content-type': 'application/x-www-form-urlencoded' },
      });
  }

  function expectDeadLink(res: Awaited<ReturnType<Harness['request']>>) {
    expect(res.statusCode).to.equal(401);
    expect(String(res.headers['content-type'])).to.match(/^text\/html/);
    expect(res.payload).to.include('This page link is not valid or has expired');
    expect(res.payload).to.not.include(connectionId);
  }

  const connectionStatus = async () => (await h().request({ method: 'GET', url: `/v1/connections/${connectionId}` })).json.status;

  it('never expires after the token: a token with a minute left gives a page with that minute', async () => {
    const token = await issueToken(60);
    const page = await pageFor(token.token);
    expect(page.expires_at).to.equal(token.expires_at);
    expect((await open(page.url)).statusCode).to.equal(200);
  });

  it('keeps its own lifetime when the token outlives it', async () => {
    h().gateway.config.connections_page.ttl_s = 600;
    try {
      const token = await issueToken(3600);
      const before = Date.now();
      const page = await pageFor(token.token);
      const expires = Date.parse(page.expires_at);
      expect(expires).to.be.within(before + 600_000 - 1000, Date.now() + 600_000);
      expect(expires).to.be.below(Date.parse(token.expires_at));
    } finally {
      h().gateway.config.connections_page.ttl_s = 3600;
    }
  });

  it('dies when the token is revoked: the page no longer lists, and its revoke form no longer revokes', async () => {
    const token = await issueToken();
    const page = await pageFor(token.token);
    const revoke = await revokeForm(page.url);
    expect((await h().request({ method: 'DELETE', url: `/v1/tokens/${token.id}` })).statusCode).to.equal(204);

    expectDeadLink(await open(page.url));
    expectDeadLink(await revoke());
    expect(await connectionStatus()).to.equal('active');
  });

  it('dies when the token expires', async () => {
    const token = await issueToken();
    const page = await pageFor(token.token);
    const revoke = await revokeForm(page.url);

    // A second after the token expired, as the gateway sees it:
    await later(Date.parse(token.expires_at) - Date.now() + 1000, async () => {
      expectDeadLink(await open(page.url));
      expectDeadLink(await revoke());
      expect(await connectionStatus()).to.equal('active');
    });
  });

  it("needs no principal from a token: the page is the token's own principal's", async () => {
    const token = await issueToken();
    const res = await h().request({ method: 'POST', url: '/v1/connect/connections-pages', payload: {}, headers: { authorization: `Bearer ${token.token}` } });
    expect(res.statusCode, res.payload).to.equal(201);
    const page = await open(res.json.url);
    expect(page.statusCode).to.equal(200);
    expect(page.payload).to.include(connectionId);
    const other = await h().request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal: 'user:bob' }, headers: { authorization: `Bearer ${token.token}` } });
    expect(other.statusCode).to.equal(403);
    expect(other.json.code).to.equal('principal_forbidden');
  });

  it("lives on for an organization key's page, which no token bounds", async () => {
    const res = await h().request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal: 'user:ada' } });
    expect(res.statusCode).to.equal(201);
    const page = await open(res.json.url);
    expect(page.statusCode).to.equal(200);
    expect(page.payload).to.include(connectionId);
  });
});
