import { expect } from 'chai';
import { createApiKey } from '../../src/domain/api-keys.js';
import { createOrganization } from '../../src/domain/organizations.js';
import { emitConnectionEvent } from '../../src/domain/webhooks/events.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

// A public address literal: accepted without DNS, and never contacted (no worker runs in these suites).
const PUBLIC_TARGET = 'https://93.184.215.14/hooks/gateway';

async function register(h: Harness, url: string, key?: string) {
  return h.request({
    method: 'POST',
    url: '/v1/webhooks',
    payload: { url },
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
}

const connection = { id: 'conn_test', provider: 'github', principal: 'user:ada', status: 'active' };

eachDialect('webhook routes', (h) => {
  it('registers a webhook: 200 WebhookCreated with exactly id, url, created_at and a whsec_ secret stored encrypted', async () => {
    const res = await register(h(), PUBLIC_TARGET);
    expect(res.statusCode).to.equal(200);
    expect(Object.keys(res.json).sort()).to.deep.equal(['created_at', 'id', 'secret', 'url']);
    expect(res.json.url).to.equal(PUBLIC_TARGET);
    expect(new Date(res.json.created_at).toISOString()).to.equal(res.json.created_at);
    expect(res.json.secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(res.json.secret.slice('whsec_'.length), 'base64')).to.have.length(32);

    const [row] = await h().gateway.db.select<{ secret: string }>('SELECT secret FROM webhooks WHERE id = $1', [res.json.id]);
    expect(row.secret).to.not.include(res.json.secret.slice('whsec_'.length));
    expect(h().gateway.keyring.decrypt(row.secret)).to.equal(res.json.secret);
  });

  it('lists live webhooks as exactly {webhooks: [{id, url, created_at}]}, never with the secret', async () => {
    const created = (await register(h(), `${PUBLIC_TARGET}/list`)).json;
    const res = await h().request({ method: 'GET', url: '/v1/webhooks' });
    expect(res.statusCode).to.equal(200);
    expect(Object.keys(res.json)).to.deep.equal(['webhooks']);
    const listed = res.json.webhooks.find((w: { id: string }) => w.id === created.id);
    expect(listed).to.deep.equal({ id: created.id, url: created.url, created_at: created.created_at });
    for (const webhook of res.json.webhooks) expect(Object.keys(webhook).sort()).to.deep.equal(['created_at', 'id', 'url']);
  });

  it('deletes a webhook: 200 Webhook, then gone from the list, and 404 webhook_not_found when deleted again', async () => {
    const created = (await register(h(), `${PUBLIC_TARGET}/delete`)).json;
    const res = await h().request({ method: 'DELETE', url: `/v1/webhooks/${created.id}` });
    expect(res.statusCode).to.equal(200);
    expect(res.json).to.deep.equal({ id: created.id, url: created.url, created_at: created.created_at });
    const list = (await h().request({ method: 'GET', url: '/v1/webhooks' })).json.webhooks;
    expect(list.map((w: { id: string }) => w.id)).to.not.include(created.id);
    problem(await h().request({ method: 'DELETE', url: `/v1/webhooks/${created.id}` }), 404, 'webhook_not_found');
    problem(await h().request({ method: 'DELETE', url: '/v1/webhooks/wh_unknown' }), 404, 'webhook_not_found');
  });

  it('lists deliveries newest first with exactly the WebhookDelivery fields', async () => {
    const created = (await register(h(), `${PUBLIC_TARGET}/deliveries`)).json;
    const { db } = h().gateway;
    const first = await emitConnectionEvent(db, h().organizationId, 'connection.created', connection);
    // Ids order by millisecond; two events within the same one have no defined order.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await emitConnectionEvent(db, h().organizationId, 'connection.revoked', connection);
    const res = await h().request({ method: 'GET', url: `/v1/webhooks/${created.id}/deliveries` });
    expect(res.statusCode).to.equal(200);
    expect(Object.keys(res.json)).to.deep.equal(['deliveries']);
    const deliveries = res.json.deliveries;
    expect(deliveries.map((d: { event_id: string }) => d.event_id)).to.deep.equal([second, first]);
    expect(deliveries[0]).to.include({ event_id: second, event: 'connection.revoked', state: 'pending', attempts: 0, last_status: null, last_error: null });
    expect(deliveries[1].event).to.equal('connection.created');
    for (const delivery of deliveries) {
      expect(Object.keys(delivery).sort()).to.deep.equal(
        ['attempts', 'created_at', 'event', 'event_id', 'id', 'last_error', 'last_status', 'state', 'updated_at'],
      );
      expect(delivery.id).to.be.a('string');
      expect(new Date(delivery.created_at).toISOString()).to.equal(delivery.created_at);
      expect(new Date(delivery.updated_at).toISOString()).to.equal(delivery.updated_at);
    }
  });

  it('ends the pending deliveries of a deleted webhook, and its deliveries answer 404', async () => {
    const created = (await register(h(), `${PUBLIC_TARGET}/ended`)).json;
    const { db } = h().gateway;
    await emitConnectionEvent(db, h().organizationId, 'connection.created', connection);
    await h().request({ method: 'DELETE', url: `/v1/webhooks/${created.id}` });
    const rows = await db.select<{ state: string; last_error: string }>('SELECT state, last_error FROM webhook_deliveries WHERE webhook_id = $1', [created.id]);
    expect(rows).to.deep.equal([{ state: 'failed', last_error: 'webhook deleted' }]);
    problem(await h().request({ method: 'GET', url: `/v1/webhooks/${created.id}/deliveries` }), 404, 'webhook_not_found');
    problem(await h().request({ method: 'GET', url: '/v1/webhooks/wh_unknown/deliveries' }), 404, 'webhook_not_found');
  });

  it("answers 404 webhook_not_found for another organization's webhook", async () => {
    const created = (await register(h(), `${PUBLIC_TARGET}/mine`)).json;
    const other = await createOrganization(h().gateway, `other-${Date.now()}`);
    const otherKey = (await createApiKey(h().gateway, other.id, 'owner')).key;
    const headers = { authorization: `Bearer ${otherKey}` };
    problem(await h().request({ method: 'GET', url: `/v1/webhooks/${created.id}/deliveries`, headers }), 404, 'webhook_not_found');
    problem(await h().request({ method: 'DELETE', url: `/v1/webhooks/${created.id}`, headers }), 404, 'webhook_not_found');
    expect((await h().request({ method: 'GET', url: '/v1/webhooks', headers })).json).to.deep.equal({ webhooks: [] });
    expect((await h().request({ method: 'GET', url: `/v1/webhooks/${created.id}/deliveries` })).statusCode).to.equal(200);
  });

  it('lets admin keys register and delete, member keys only read (403 role_forbidden)', async () => {
    const admin = await h().keyWithRole('admin');
    const member = await h().keyWithRole('member');
    const created = await register(h(), `${PUBLIC_TARGET}/admin`, admin);
    expect(created.statusCode).to.equal(200);
    problem(await register(h(), `${PUBLIC_TARGET}/member`, member), 403, 'role_forbidden');
    const asMember = { authorization: `Bearer ${member}` };
    problem(await h().request({ method: 'DELETE', url: `/v1/webhooks/${created.json.id}`, headers: asMember }), 403, 'role_forbidden');
    expect((await h().request({ method: 'GET', url: '/v1/webhooks', headers: asMember })).statusCode).to.equal(200);
    expect((await h().request({ method: 'GET', url: `/v1/webhooks/${created.json.id}/deliveries`, headers: asMember })).statusCode).to.equal(200);
    const deleted = await h().request({ method: 'DELETE', url: `/v1/webhooks/${created.json.id}`, headers: { authorization: `Bearer ${admin}` } });
    expect(deleted.statusCode).to.equal(200);
  });

  it('refuses principal-bound tokens on every webhook route (403 role_forbidden)', async () => {
    const issued = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } });
    expect(issued.statusCode).to.equal(201);
    const headers = { authorization: `Bearer ${issued.json.token}` };
    problem(await h().request({ method: 'POST', url: '/v1/webhooks', payload: { url: PUBLIC_TARGET }, headers }), 403, 'role_forbidden');
    problem(await h().request({ method: 'GET', url: '/v1/webhooks', headers }), 403, 'role_forbidden');
    problem(await h().request({ method: 'DELETE', url: '/v1/webhooks/wh_x', headers }), 403, 'role_forbidden');
    problem(await h().request({ method: 'GET', url: '/v1/webhooks/wh_x/deliveries', headers }), 403, 'role_forbidden');
  });

  it('answers 401 without a credential', async () => {
    problem(await h().request({ method: 'GET', url: '/v1/webhooks', headers: { authorization: null } }), 401, 'unauthenticated');
  });

  it('answers 400 invalid_input for a missing, malformed or over-long url and unknown members', async () => {
    for (const payload of [{}, { url: 'not a url' }, { url: `${PUBLIC_TARGET}/${'a'.repeat(2000)}` }, { url: PUBLIC_TARGET, extra: 1 }, { url: 'https://93.184.215.14/\u0000' }]) {
      problem(await h().request({ method: 'POST', url: '/v1/webhooks', payload }), 400, 'invalid_input');
    }
    problem(await h().request({ method: 'GET', url: '/v1/webhooks?page=2' }), 400, 'invalid_input');
    problem(await h().request({ method: 'DELETE', url: `/v1/webhooks/${'x'.repeat(101)}` }), 400, 'invalid_input');
  });

  const refusedTargets = [
    ['plain http', 'http://93.184.215.14/hook'],
    ['a scheme other than http(s)', 'ftp://93.184.215.14/hook'],
    ['credentials in the URL', 'https://user:pass@93.184.215.14/hook'],
    ['a user name alone in the URL', 'https://user@93.184.215.14/hook'],
    ['a private address', 'https://10.0.0.1/hook'],
    ['a 172.16/12 private address', 'https://172.20.1.1/hook'],
    ['a CGNAT address', 'https://100.64.0.1/hook'],
    ['IPv4 loopback', 'https://127.0.0.1/hook'],
    ['IPv4 loopback in decimal form', 'https://2130706433/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['a name resolving to loopback', 'https://localhost/hook'],
    ['a .localhost name', 'https://hooks.localhost/hook'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['the AWS IPv6 metadata address', 'https://[fd00:ec2::254]/'],
    ['the GCP metadata host', 'https://metadata.google.internal/computeMetadata/v1/'],
    ['a link-local address', 'https://169.254.10.10/hook'],
    ['an IPv6 link-local address', 'https://[fe80::1]/hook'],
    ['a unique-local IPv6 address', 'https://[fd12:3456::1]/hook'],
    ['the unspecified address', 'https://0.0.0.0/hook'],
    ['a multicast address', 'https://224.0.0.1/hook'],
    ['an unresolvable name', 'https://hooks.invalid/hook'],
  ];
  for (const [what, url] of refusedTargets) {
    it(`answers 422 webhook_target_refused for ${what}`, async () => {
      const body = problem(await register(h(), url), 422, 'webhook_target_refused');
      expect(body.detail).to.match(/^webhook target refused: /);
    });
  }

  it('names the resolved address when a host name resolves to loopback', async () => {
    const body = problem(await register(h(), 'https://localhost:8443/hook'), 422, 'webhook_target_refused');
    expect(body.detail).to.match(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });
}, { config: { webhooks: { max_per_org: 1000 }, rate_limits: { webhooks: 10_000 } } });

eachDialect('webhook routes with private targets allowed (development switch)', (h) => {
  for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://10.0.0.1/hook', 'https://[::1]:9/hook']) {
    it(`accepts ${url}`, async () => {
      expect((await register(h(), url)).statusCode).to.equal(200);
    });
  }

  for (const url of ['http://169.254.169.254/latest/meta-data', 'http://metadata.google.internal/', 'http://[fe80::1]/', 'http://0.0.0.0:9/', 'http://u:p@127.0.0.1:9/']) {
    it(`still refuses ${url}`, async () => {
      problem(await register(h(), url), 422, 'webhook_target_refused');
    });
  }
}, { config: { webhooks: { allow_private_targets: true, max_per_org: 1000 }, rate_limits: { webhooks: 10_000 } } });

eachDialect('webhook cap per organization', (h) => {
  it('answers 409 webhook_limit_reached past webhooks.max_per_org, and accepts again after a delete', async () => {
    const first = await register(h(), `${PUBLIC_TARGET}/1`);
    expect((await register(h(), `${PUBLIC_TARGET}/2`)).statusCode).to.equal(200);
    const body = problem(await register(h(), `${PUBLIC_TARGET}/3`), 409, 'webhook_limit_reached');
    expect(body.detail).to.include('2');
    await h().request({ method: 'DELETE', url: `/v1/webhooks/${first.json.id}` });
    expect((await register(h(), `${PUBLIC_TARGET}/3`)).statusCode).to.equal(200);
  });

  it('never lets concurrent registrations pass the cap', async () => {
    for (const webhook of (await h().request({ method: 'GET', url: '/v1/webhooks' })).json.webhooks) {
      await h().request({ method: 'DELETE', url: `/v1/webhooks/${webhook.id}` });
    }
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => register(h(), `${PUBLIC_TARGET}/race-${i}`)));
    expect(results.filter((r) => r.statusCode === 200)).to.have.length(2);
    for (const refused of results.filter((r) => r.statusCode !== 200)) problem(refused, 409, 'webhook_limit_reached');
  });
}, { config: { webhooks: { max_per_org: 2 } } });

eachDialect('webhook registration rate limit', (h) => {
  it('answers 429 rate_limited with Retry-After past rate_limits.webhooks a minute', async () => {
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await register(h(), `${PUBLIC_TARGET}/${i}`));
    const limited = results.find((r) => r.statusCode === 429);
    expect(limited, 'one of three registrations is over a budget of one a minute').to.not.equal(undefined);
    problem(limited!, 429, 'rate_limited');
    expect(Number(limited!.headers['retry-after'])).to.be.at.least(1);
  });
}, { config: { rate_limits: { webhooks: 1 } } });
