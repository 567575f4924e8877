import { expect } from 'chai';
import { eventually } from '../support/webhook-receiver.js';
import { conformance, problem, isoTime, long, RATE_LIMIT_TOKENS, WEBHOOK_CAP, deliveryMembers, type Answer } from './conformance.js';

conformance('system, authentication, tokens, webhooks, connections, connect flow, providers', (c) => {
  const { api, cli, cliJson, issueToken, keyWithRole } = c;

  describe('system, authentication, and what every answer carries', () => {
    it('GET /health is 204 with an empty body and needs no credential', async () => {
      const health = await api('GET', '/health', { key: null });
      expect(health.status).to.equal(204);
      expect(health.text).to.equal('');
      expect(health.headers.get('svc-catalog-version')).to.match(/^[0-9a-f]{12}$/);
    });

    it('GET /v1/me is 200 JSON for a key and for a token', async () => {
      const me = await api('GET', '/v1/me');
      expect(me.status).to.equal(200);
      expect(me.headers.get('content-type')).to.match(/^application\/json/);
      const { token } = await issueToken('user:me');
      expect((await api('GET', '/v1/me', { key: token })).status).to.equal(200);
    });

    it('401 unauthenticated without a bearer credential, 401 invalid_token for a bad one', async () => {
      problem(await api('GET', '/v1/me', { key: null }), 401, 'unauthenticated');
      problem(await api('GET', '/v1/me', { key: null, headers: { authorization: 'Basic Zm9vOmJhcg==' } }), 401, 'unauthenticated');
      problem(await api('GET', '/v1/me', { key: 'gw_live_not-a-key' }), 401, 'invalid_token');
      problem(await api('GET', '/v1/me', { key: 'gw_user_not-a-token' }), 401, 'invalid_token');
      problem(await api('POST', '/v1/tokens', { key: null, body: { principal: 'user:a' } }), 401, 'unauthenticated');
    });

    it('403 untrusted_origin for an Origin the organization does not trust; none passes', async () => {
      problem(await api('GET', '/v1/me', { headers: { origin: 'https://evil.example' } }), 403, 'untrusted_origin');
      expect((await api('GET', '/v1/me')).status).to.equal(200);
      expect((await cliJson('orgs', 'origins', 'default', 'https://app.example.com')).trusted_origins).to.deep.equal(['https://app.example.com']);
      expect((await api('GET', '/v1/me', { headers: { origin: 'https://app.example.com' } })).status).to.equal(200);
      problem(await api('GET', '/v1/me', { headers: { origin: 'https://evil.example' } }), 403, 'untrusted_origin');
    });

    it('403 no_active_organization for the keys of a suspended organization', async () => {
      await cliJson('orgs', 'create', 'dormant');
      const { key } = await cliJson('keys', 'create', '--role', 'owner', '--org', 'dormant');
      expect((await api('GET', '/v1/me', { key })).status).to.equal(200);
      expect((await cli('orgs', 'suspend', 'dormant')).code).to.equal(0);
      problem(await api('GET', '/v1/me', { key }), 403, 'no_active_organization');
      problem(await api('GET', '/v1/tasks', { key }), 403, 'no_active_organization');
      expect((await cli('orgs', 'resume', 'dormant')).code).to.equal(0);
      expect((await api('GET', '/v1/me', { key })).status).to.equal(200);
    });

    it('every answer carries svc-catalog-version, errors and unknown routes included', async () => {
      for (const answer of [
        await api('GET', '/v1/tasks'),
        await api('GET', '/v1/me', { key: null }),
        await api('GET', '/v1/nowhere'),
        await api('POST', '/v1/tokens', { raw: '{' }),
        await api('DELETE', '/v1/tokens/tok_missing'),
      ]) {
        expect(answer.headers.get('svc-catalog-version'), answer.text).to.equal(c.version);
      }
      problem(await api('GET', '/v1/nowhere'), 404, 'route_not_found');
      const oversizedHeaders = await api('GET', '/v1/me', { headers: { 'x-filler': long(20000) } });
      problem(oversizedHeaders, 413, 'payload_too_large');
      expect(oversizedHeaders.headers.get('svc-catalog-version')).to.equal(c.version);
    });

    it('400 invalid_input for malformed JSON, a non-JSON body, NUL characters and unknown query parameters', async () => {
      problem(await api('POST', '/v1/tokens', { raw: '{"principal":' }), 400, 'invalid_input');
      problem(await api('POST', '/v1/tokens', { raw: 'principal=user:a', headers: { 'content-type': 'text/plain' } }), 400, 'invalid_input');
      problem(await api('POST', '/v1/discover', { body: { task: 'send\u0000mail' } }), 400, 'invalid_input');
      problem(await api('POST', '/v1/discover', { raw: '{"task":"send \\ud800 mail"}' }), 400, 'invalid_input');
      problem(await api('GET', '/v1/tasks?q=%ED%A0%80'), 400, 'invalid_input');
      problem(await api('GET', '/v1/tasks?q=a%00b'), 400, 'invalid_input');
      problem(await api('GET', '/v1/tasks/a%00b'), 400, 'invalid_input');
      for (const url of ['/v1/me?x=1', '/v1/tasks?nope=1', '/v1/calls?foo=bar', '/v1/tokens?limit=5', '/v1/webhooks?x=1', '/v1/providers?x=1', '/v1/connect/redirect-uris?x=1']) {
        const answer = await api('GET', url);
        problem(answer, 400, 'invalid_input');
        expect(answer.body.invalid_params, url).to.be.an('array').that.is.not.empty;
      }
    });

    it('413 payload_too_large for a body over 1 MiB on every POST, PUT and PATCH', async () => {
      const big = JSON.stringify({ principal: 'user:a', filler: long(1024 * 1024 + 10) });
      for (const [method, url] of [
        ['POST', '/v1/tokens'],
        ['POST', '/v1/webhooks'],
        ['POST', '/v1/connections'],
        ['POST', '/v1/connect/sessions'],
        ['POST', '/v1/connect/connections-pages'],
        ['POST', '/v1/discover'],
        ['POST', '/v1/tasks/rt-open.weather.now/run'],
        ['PUT', '/v1/connect/redirect-uris'],
        ['PUT', '/v1/providers/rt-oauth/oauth-app'],
        ['PATCH', '/v1/connections/conn_x'],
      ]) {
        problem(await api(method, url, { raw: big }), 413, 'payload_too_large');
      }
    });

    it('400 invalid_input for path ids and slugs over 100 characters on every route that takes one', async () => {
      const id = long(101);
      for (const [method, url] of [
        ['GET', `/v1/tasks/${id}`],
        ['POST', `/v1/tasks/${id}/run`],
        ['GET', `/v1/capabilities/${id}`],
        ['GET', `/v1/calls/${id}`],
        ['GET', `/v1/calls/${id}/capture`],
        ['GET', `/v1/connections/${id}`],
        ['PATCH', `/v1/connections/${id}`],
        ['DELETE', `/v1/connections/${id}`],
        ['GET', `/v1/connect/sessions/${id}`],
        ['GET', `/v1/providers/${id}`],
        ['GET', `/v1/providers/${id}/oauth-app`],
        ['PUT', `/v1/providers/${id}/oauth-app`],
        ['DELETE', `/v1/providers/${id}/oauth-app`],
        ['DELETE', `/v1/webhooks/${id}`],
        ['GET', `/v1/webhooks/${id}/deliveries`],
        ['DELETE', `/v1/tokens/${id}`],
      ]) {
        const body = method === 'GET' || method === 'DELETE' ? undefined : method === 'PATCH' ? { label: 'x' } : method === 'PUT' ? { client_id: 'c', client_secret: 's' } : {};
        problem(await api(method, url, { body }), 400, 'invalid_input');
      }
      expect((await api('GET', `/v1/tasks/${long(100)}`)).body.code).to.equal('task_not_found');
    });

    it('400 invalid_input for query values over their limits (cursor 100, q 200 and 140, filters 100)', async () => {
      for (const url of [
        `/v1/tasks?cursor=${long(101)}`,
        `/v1/tasks?provider=${long(101)}`,
        `/v1/tasks?capability=${long(101)}`,
        `/v1/tasks?q=${long(201)}`,
        '/v1/tasks?kind=magic',
        `/v1/calls?cursor=${long(101)}`,
        `/v1/calls?task=${long(101)}`,
        `/v1/calls?provider=${long(101)}`,
        `/v1/calls?token=${long(101)}`,
        `/v1/calls?connection=${long(101)}`,
        '/v1/calls?outcome=done',
        '/v1/calls?principal=bob',
        `/v1/captures?cursor=${long(101)}`,
        `/v1/usage?token=${long(101)}`,
        '/v1/usage?days=2',
        `/v1/grants?cursor=${long(101)}`,
        '/v1/grants?state=gone',
        `/v1/principals?q=${long(141)}`,
        `/v1/principals?cursor=${long(101)}`,
        `/v1/connect/sessions?cursor=${long(101)}`,
        '/v1/connect/sessions?status=done',
        `/v1/tokens?cursor=${long(101)}`,
        '/v1/connections?principal=nobody',
      ]) {
        problem(await api('GET', url), 400, 'invalid_input');
      }
      expect((await api('GET', `/v1/tasks?q=${long(200)}`)).status).to.equal(200);
      expect((await api('GET', `/v1/principals?q=${long(140)}`)).status).to.equal(200);
      for (const days of ['1', '7', '30']) expect((await api('GET', `/v1/usage?days=${days}`)).status).to.equal(200);
    });

    it('principal syntax: organization or user:<1-128 of letters, digits and ._:@+->', async () => {
      for (const principal of ['organization', 'user:a', `user:${long(128)}`, 'user:Ada.L_1:x@y+z-0']) {
        expect((await api('GET', '/v1/tasks', { headers: { 'svc-principal': principal } })).status, principal).to.equal(200);
      }
      for (const principal of ['bob', 'user:', `user:${long(129)}`, 'user:a b', 'user:a/b', 'Organization', 'org']) {
        problem(await api('GET', '/v1/tasks', { headers: { 'svc-principal': principal } }), 400, 'invalid_input');
        problem(await api('POST', '/v1/tokens', { body: { principal } }), 400, 'invalid_input');
      }
    });
  });

  describe('principal-bound tokens and key roles', () => {
    let user: string;

    before(async () => {
      user = (await issueToken('user:ada')).token;
    });

    it('a token acts only as its own principal: any other is 403 principal_forbidden', async () => {
      const other = { 'svc-principal': 'user:bob' };
      problem(await api('GET', '/v1/tasks', { key: user, headers: other }), 403, 'principal_forbidden');
      problem(await api('GET', '/v1/tasks/rt-open.weather.now', { key: user, headers: other }), 403, 'principal_forbidden');
      problem(await api('GET', '/v1/capabilities/rtest.weather.now', { key: user, headers: other }), 403, 'principal_forbidden');
      problem(await api('POST', '/v1/discover', { key: user, headers: other, body: { task: 'weather now' } }), 403, 'principal_forbidden');
      problem(await api('POST', '/v1/tasks/rt-open.weather.now/run', { key: user, headers: other, body: { city: 'Paris' } }), 403, 'principal_forbidden');
      problem(
        await api('POST', '/v1/tasks/rt-open.weather.now/run', { key: user, body: { city: 'Paris', receipt_options: { principal: 'user:bob' } } }),
        403,
        'principal_forbidden',
      );
      problem(await api('GET', '/v1/connections?principal=user:bob', { key: user }), 403, 'principal_forbidden');
      problem(await api('GET', '/v1/connect/sessions?principal=organization', { key: user }), 403, 'principal_forbidden');
      problem(await api('POST', '/v1/connect/sessions', { key: user, body: { provider: 'rt-oauth', principal: 'user:bob' } }), 403, 'principal_forbidden');
      problem(await api('POST', '/v1/connect/connections-pages', { key: user, body: { principal: 'user:bob' } }), 403, 'principal_forbidden');
    });

    it('a principal-bound token may call what docs/api.md lists for tokens, as its own principal', async () => {
      const own = { 'svc-principal': 'user:ada' };
      expect((await api('GET', '/v1/me', { key: user })).status).to.equal(200);
      expect((await api('GET', '/v1/tasks', { key: user, headers: own })).status).to.equal(200);
      expect((await api('GET', '/v1/tasks/rt-open.weather.now', { key: user })).status).to.equal(200);
      expect((await api('GET', '/v1/capabilities/rtest.weather.now', { key: user })).status).to.equal(200);
      expect((await api('POST', '/v1/discover', { key: user, body: { task: 'weather now in a city' } })).status).to.equal(200);
      const run = await api('POST', '/v1/tasks/rt-open.weather.now/run', { key: user, body: { city: 'Paris' } });
      expect(run.status, run.text).to.equal(200);
      expect(run.body.receipt.principal).to.equal('user:ada');
      expect((await api('GET', '/v1/connections', { key: user })).status).to.equal(200);
      expect((await api('GET', '/v1/connections?principal=user:ada', { key: user })).status).to.equal(200);
      expect((await api('GET', '/v1/connect/sessions', { key: user })).status).to.equal(200);
      expect((await api('POST', '/v1/connect/sessions', { key: user, body: { provider: 'rt-oauth', principal: 'user:ada' } })).status).to.equal(201);
      expect((await api('POST', '/v1/connect/connections-pages', { key: user, body: { principal: 'user:ada' } })).status).to.equal(201);
      problem(await api('GET', '/v1/connections/conn_missing', { key: user }), 404, 'connection_not_found');
      problem(await api('DELETE', '/v1/connections/conn_missing', { key: user }), 404, 'connection_not_found');
    });

    it('a token on any other operation is 403 role_forbidden', async () => {
      for (const [method, url, body] of [
        ['POST', '/v1/tokens', { principal: 'user:ada' }],
        ['GET', '/v1/tokens'],
        ['DELETE', '/v1/tokens/tok_x'],
        ['GET', '/v1/calls'],
        ['GET', '/v1/calls/call_x'],
        ['GET', '/v1/calls/call_x/capture'],
        ['GET', '/v1/captures'],
        ['GET', '/v1/usage'],
        ['GET', '/v1/grants'],
        ['GET', '/v1/principals'],
        ['GET', '/v1/providers'],
        ['GET', '/v1/providers/rt-oauth'],
        ['GET', '/v1/providers/rt-oauth/oauth-app'],
        ['PUT', '/v1/providers/rt-oauth/oauth-app', { client_id: 'c', client_secret: 's' }],
        ['DELETE', '/v1/providers/rt-oauth/oauth-app'],
        ['POST', '/v1/webhooks', { url: 'https://example.com/h' }],
        ['GET', '/v1/webhooks'],
        ['DELETE', '/v1/webhooks/wh_x'],
        ['GET', '/v1/webhooks/wh_x/deliveries'],
        ['GET', '/v1/connect/redirect-uris'],
        ['PUT', '/v1/connect/redirect-uris', { redirect_uris: [] }],
        ['POST', '/v1/connections', { provider: 'rt-paid', credential: 'good-key' }],
        ['PATCH', '/v1/connections/conn_x', { label: 'x' }],
      ] as Array<[string, string, unknown?]>) {
        problem(await api(method, url, { key: user, body }), 403, 'role_forbidden');
      }
    });

    it('a member key is 403 role_forbidden on setup changes and may do everything else', async () => {
      const [member, admin] = await Promise.all([keyWithRole('member'), keyWithRole('admin')]);
      for (const [method, url, body] of [
        ['POST', '/v1/webhooks', { url: `${c.receiver.url}?member` }],
        ['DELETE', '/v1/webhooks/wh_x'],
        ['PUT', '/v1/connect/redirect-uris', { redirect_uris: [] }],
        ['PUT', '/v1/providers/rt-oauth/oauth-app', { client_id: 'c', client_secret: 's' }],
        ['DELETE', '/v1/providers/rt-oauth/oauth-app'],
      ] as Array<[string, string, unknown?]>) {
        problem(await api(method, url, { key: member, body }), 403, 'role_forbidden');
      }
      for (const url of ['/v1/webhooks', '/v1/connect/redirect-uris', '/v1/tokens', '/v1/calls', '/v1/providers']) {
        expect((await api('GET', url, { key: member })).status, url).to.equal(200);
      }
      expect((await api('POST', '/v1/tokens', { key: member, body: { principal: 'user:m' } })).status).to.equal(201);
      const put = await api('PUT', '/v1/connect/redirect-uris', { key: admin, body: { redirect_uris: [] } });
      expect(put.status, put.text).to.equal(200);
    });
  });

  describe('tokens', () => {
    it('POST /v1/tokens is 201 UserBoundToken exactly; expires_in defaults to 3600 and is bounded 60..86400', async () => {
      const before = Date.now();
      const issued = await api('POST', '/v1/tokens', { body: { principal: 'user:t1' } });
      expect(issued.status).to.equal(201);
      expect(issued.body).to.have.all.keys('id', 'token', 'principal', 'expires_at');
      expect(issued.body.principal).to.equal('user:t1');
      const expires = isoTime(issued.body.expires_at);
      expect(expires).to.be.within(before + 3599_000, Date.now() + 3601_000);
      const shortest = await api('POST', '/v1/tokens', { body: { principal: 'organization', expires_in: 60 } });
      expect(shortest.status).to.equal(201);
      expect(isoTime(shortest.body.expires_at) - Date.now()).to.be.within(55_000, 61_000);
      expect((await api('POST', '/v1/tokens', { body: { principal: 'user:t1', expires_in: 86400 } })).status).to.equal(201);
      for (const expires_in of [59, 86401, 0, -1, 90.5, '3600']) {
        problem(await api('POST', '/v1/tokens', { body: { principal: 'user:t1', expires_in } }), 400, 'invalid_input');
      }
      problem(await api('POST', '/v1/tokens', { body: {} }), 400, 'invalid_input');
      problem(await api('POST', '/v1/tokens', { body: { principal: 'user:t1', extra: true } }), 400, 'invalid_input');
    });

    it('GET /v1/tokens is HeldUserBoundTokens exactly, paged by next_cursor; DELETE is 204 and the token stops working', async () => {
      const mine = await issueToken('user:pager');
      for (let i = 0; i < 50; i++) await issueToken(`user:pager${i}`);
      const first = await api('GET', '/v1/tokens');
      expect(first.status).to.equal(200);
      expect(first.body).to.have.all.keys('tokens', 'next_cursor');
      expect(first.body.tokens).to.have.length(50);
      for (const token of first.body.tokens) {
        expect(token).to.have.all.keys('id', 'principal', 'expires_at', 'issued_by');
        for (const member of Object.values(token)) expect(member).to.be.a('string');
      }
      expect(first.body.next_cursor).to.be.a('string');
      const second = await api('GET', `/v1/tokens?cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect(second.status).to.equal(200);
      const ids = [...first.body.tokens, ...second.body.tokens].map((t: { id: string }) => t.id);
      expect(new Set(ids).size).to.equal(ids.length);
      expect(ids).to.include(mine.id);
      problem(await api('GET', '/v1/tokens?cursor=bm9wZQ'), 400, 'invalid_input');

      const me = await api('GET', '/v1/me');
      const held = [...first.body.tokens, ...second.body.tokens].find((t: { id: string }) => t.id === mine.id);
      expect(held.issued_by).to.equal(me.body.key.id);

      expect((await api('GET', '/v1/me', { key: mine.token })).status).to.equal(200);
      const revoked = await api('DELETE', `/v1/tokens/${mine.id}`);
      expect(revoked.status).to.equal(204);
      expect(revoked.text).to.equal('');
      problem(await api('GET', '/v1/me', { key: mine.token }), 401, 'invalid_token');
      problem(await api('DELETE', `/v1/tokens/${mine.id}`), 404, 'token_not_found');
      problem(await api('DELETE', '/v1/tokens/tok_unknown'), 404, 'token_not_found');
    });

    it('429 rate_limited on token issue, with Retry-After and the RateLimit headers', async () => {
      let limited: Answer | undefined;
      for (let i = 0; i < RATE_LIMIT_TOKENS * 2 + 2 && !limited; i++) {
        const answer = await api('POST', '/v1/tokens', { body: { principal: 'user:burst' } });
        if (answer.status === 429) limited = answer;
        else expect(answer.status).to.equal(201);
      }
      expect(limited, 'no 429').to.not.equal(undefined);
      problem(limited!, 429, 'rate_limited');
      expect(Number(limited!.headers.get('retry-after'))).to.be.within(1, 60);
      expect(limited!.headers.get('ratelimit')).to.be.a('string');
      expect(limited!.headers.get('ratelimit-policy')).to.match(new RegExp(`q=${RATE_LIMIT_TOKENS}`));
    });
  });

  describe('webhooks', () => {
    it('POST is 200 WebhookCreated exactly, GET lists Webhook exactly, DELETE answers the Webhook, deliveries are exact', async () => {
      const created = await api('POST', '/v1/webhooks', { body: { url: c.receiver.url } });
      expect(created.status, created.text).to.equal(200);
      expect(created.body).to.have.all.keys('id', 'url', 'created_at', 'secret');
      expect(created.body.secret).to.match(/^whsec_/);
      isoTime(created.body.created_at);
      c.receiver.secret = created.body.secret;

      const listed = await api('GET', '/v1/webhooks');
      expect(listed.status).to.equal(200);
      expect(listed.body).to.have.all.keys('webhooks');
      const shown = listed.body.webhooks.find((w: { id: string }) => w.id === created.body.id);
      expect(shown).to.have.all.keys('id', 'url', 'created_at');

      const empty = await api('GET', `/v1/webhooks/${created.body.id}/deliveries`);
      expect(empty.status).to.equal(200);
      expect(empty.body).to.deep.equal({ deliveries: [] });

      const connection = await api('POST', '/v1/connections', { body: { provider: 'rt-paid', principal: 'user:hooked', credential: 'good-key' } });
      expect(connection.status, connection.text).to.equal(200);
      await eventually('a delivered connection.created', async () => {
        const answer = await api('GET', `/v1/webhooks/${created.body.id}/deliveries`);
        return answer.body.deliveries.some((d: { state: string }) => d.state === 'delivered');
      });
      const deliveries = await api('GET', `/v1/webhooks/${created.body.id}/deliveries`);
      expect(deliveries.body).to.have.all.keys('deliveries');
      const [delivery] = deliveries.body.deliveries;
      expect(delivery).to.have.all.keys(...deliveryMembers);
      expect(delivery.event).to.equal('connection.created');
      expect(delivery.state).to.equal('delivered');
      expect(delivery.attempts).to.be.a('number');
      expect(delivery.last_status).to.equal(204);
      expect(delivery.last_error).to.equal(null);
      isoTime(delivery.created_at);
      isoTime(delivery.updated_at);
      expect(c.receiver.receipts.some((r) => r.verified)).to.equal(true);

      const deleted = await api('DELETE', `/v1/webhooks/${created.body.id}`);
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.have.all.keys('id', 'url', 'created_at');
      problem(await api('DELETE', `/v1/webhooks/${created.body.id}`), 404, 'webhook_not_found');
      problem(await api('GET', `/v1/webhooks/${created.body.id}/deliveries`), 404, 'webhook_not_found');
    });

    it('400 for a missing or over-long url, 422 webhook_target_refused for a refused target, 409 at the cap', async () => {
      problem(await api('POST', '/v1/webhooks', { body: {} }), 400, 'invalid_input');
      problem(await api('POST', '/v1/webhooks', { body: { url: `https://example.com/${long(1981)}` } }), 400, 'invalid_input');
      for (const url of ['ftp://example.com/hook', 'https://user:pass@example.com/hook', 'https://169.254.169.254/latest', 'https://metadata.google.internal/x']) {
        problem(await api('POST', '/v1/webhooks', { body: { url } }), 422, 'webhook_target_refused');
      }
      const existing = (await api('GET', '/v1/webhooks')).body.webhooks.length;
      for (let i = existing; i < WEBHOOK_CAP; i++) {
        expect((await api('POST', '/v1/webhooks', { body: { url: `${c.receiver.url}?n=${i}` } })).status).to.equal(200);
      }
      problem(await api('POST', '/v1/webhooks', { body: { url: `${c.receiver.url}?over` } }), 409, 'webhook_limit_reached');
      for (const webhook of (await api('GET', '/v1/webhooks')).body.webhooks) {
        expect((await api('DELETE', `/v1/webhooks/${webhook.id}`)).status).to.equal(200);
      }
    });
  });

  describe('connections, grants, principals', () => {
    it('POST /v1/connections is 200; 422 credential_refused; 503 probe_unavailable; read, change, revoke and 404s', async () => {
      const created = await api('POST', '/v1/connections', { body: { provider: 'rt-paid', principal: 'user:cora', credential: 'good-key' } });
      expect(created.status, created.text).to.equal(200);
      expect(created.body.id).to.be.a('string');
      expect(JSON.stringify(created.body)).to.not.include('good-key');
      problem(await api('POST', '/v1/connections', { body: { provider: 'rt-paid', credential: 'bad-key' } }), 422, 'credential_refused');
      problem(await api('POST', '/v1/connections', { body: { provider: 'rt-keyq', credential: 'some-key' } }), 503, 'probe_unavailable');
      problem(await api('POST', '/v1/connections', { body: { provider: 'rt-paid', credential: 'abc' } }), 400, 'invalid_input');

      const listed = await api('GET', '/v1/connections?principal=user:cora');
      expect(listed.status).to.equal(200);
      const read = await api('GET', `/v1/connections/${created.body.id}`);
      expect(read.status).to.equal(200);
      const changed = await api('PATCH', `/v1/connections/${created.body.id}`, { body: { label: 'Work' } });
      expect(changed.status, changed.text).to.equal(200);
      const revoked = await api('DELETE', `/v1/connections/${created.body.id}`);
      expect(revoked.status).to.equal(200);
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        problem(await api(method, '/v1/connections/conn_missing', { body: method === 'PATCH' ? { label: 'x' } : undefined }), 404, 'connection_not_found');
      }
      problem(await api('PATCH', `/v1/connections/${created.body.id}`, { body: {} }), 400, 'invalid_input');
    });

    it('GET /v1/grants and /v1/principals are 200 pages with next_cursor', async () => {
      for (const url of ['/v1/grants', '/v1/grants?state=active&principal=user:cora', '/v1/principals', '/v1/principals?q=cora']) {
        const answer = await api('GET', url);
        expect(answer.status, url).to.equal(200);
        expect(answer.body).to.have.property('next_cursor');
      }
    });
  });

  describe('connect flow and redirect allowlist', () => {
    it('POST /v1/connect/sessions is 201 ConnectSessionCreated exactly, lasting fifteen minutes; the session reads back pending', async () => {
      const created = await api('POST', '/v1/connect/sessions', { body: { provider: 'rt-oauth', principal: 'user:dora', scopes: ['mail.read'] } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.have.all.keys('session_id', 'url', 'expires_at');
      expect(isoTime(created.body.expires_at) - Date.now()).to.be.within(14 * 60_000, 15 * 60_000 + 1000);
      expect(created.body.url).to.match(/^https?:\/\//);
      const read = await api('GET', `/v1/connect/sessions/${created.body.session_id}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.include({ status: 'pending', principal: 'user:dora', provider: 'rt-oauth' });
      const listed = await api('GET', '/v1/connect/sessions?status=pending&principal=user:dora');
      expect(listed.status).to.equal(200);
      expect(listed.body).to.have.property('next_cursor');
      problem(await api('GET', '/v1/connect/sessions/cs_missing'), 404, 'connect_session_not_found');
    });

    it('a redirect_uri must be on the allowlist; the allowlist is RedirectAllowlist exactly and PUT replaces it', async () => {
      const initial = await api('GET', '/v1/connect/redirect-uris');
      expect(initial.status).to.equal(200);
      expect(initial.body).to.have.all.keys('redirect_uris');
      const put = await api('PUT', '/v1/connect/redirect-uris', { body: { redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb'] } });
      expect(put.status, put.text).to.equal(200);
      expect(put.body).to.deep.equal({ redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb'] });
      expect((await api('GET', '/v1/connect/redirect-uris')).body).to.deep.equal(put.body);
      for (const bad of ['http://app.example.com/cb', 'https://app.example.com/cb?x=1', 'https://app.example.com/cb#f', 'not a url']) {
        problem(await api('PUT', '/v1/connect/redirect-uris', { body: { redirect_uris: ['https://ok.example.com/cb', bad] } }), 400, 'invalid_input');
      }
      expect((await api('GET', '/v1/connect/redirect-uris')).body).to.deep.equal(put.body);
      const allowed = await api('POST', '/v1/connect/sessions', {
        body: { provider: 'rt-oauth', principal: 'user:dora', redirect_uri: 'https://app.example.com/cb' },
      });
      expect(allowed.status, allowed.text).to.equal(201);
      problem(
        await api('POST', '/v1/connect/sessions', { body: { provider: 'rt-oauth', principal: 'user:dora', redirect_uri: 'https://app.example.com/other' } }),
        400,
        'invalid_input',
      );
    });

    it('POST /v1/connect/connections-pages is 201 ConnectionsPageCreated exactly', async () => {
      const page = await api('POST', '/v1/connect/connections-pages', { body: { principal: 'user:dora' } });
      expect(page.status).to.equal(201);
      expect(page.body).to.have.all.keys('url', 'expires_at');
      expect(isoTime(page.body.expires_at)).to.be.greaterThan(Date.now());
      const html = await fetch(page.body.url);
      expect(html.status).to.equal(200);
      problem(await api('POST', '/v1/connect/connections-pages', { body: {} }), 400, 'invalid_input');
    });

    it('a connect session names an OAuth2 provider of the catalog, else 400 invalid_input', async () => {
      problem(await api('POST', '/v1/connect/sessions', { body: { provider: 'rt-paid', principal: 'user:dora' } }), 400, 'invalid_input');
      problem(await api('POST', '/v1/connect/sessions', { body: { provider: 'nope', principal: 'user:dora' } }), 400, 'invalid_input');
      problem(await api('POST', '/v1/connect/sessions', { body: { provider: 'rt-oauth' } }), 400, 'invalid_input');
    });
  });

  describe('providers and OAuth apps', () => {
    it('GET /v1/providers and /v1/providers/{slug}; 404 provider_not_found', async () => {
      expect((await api('GET', '/v1/providers')).status).to.equal(200);
      expect((await api('GET', '/v1/providers/rt-open')).status).to.equal(200);
      problem(await api('GET', '/v1/providers/nope'), 404, 'provider_not_found');
    });

    it('oauth-app: GET 404 until PUT (200), DELETE 204 empty, then 404 oauth_app_not_found; unknown slug 404 provider_not_found', async () => {
      problem(await api('GET', '/v1/providers/rt-oauth/oauth-app'), 404, 'oauth_app_not_found');
      problem(await api('DELETE', '/v1/providers/rt-oauth/oauth-app'), 404, 'oauth_app_not_found');
      const put = await api('PUT', '/v1/providers/rt-oauth/oauth-app', { body: { client_id: 'cid', client_secret: 'the-secret', scopes: ['mail.read'] } });
      expect(put.status, put.text).to.equal(200);
      expect(put.text).to.not.include('the-secret');
      const read = await api('GET', '/v1/providers/rt-oauth/oauth-app');
      expect(read.status).to.equal(200);
      expect(read.text).to.not.include('the-secret');
      const deleted = await api('DELETE', '/v1/providers/rt-oauth/oauth-app');
      expect(deleted.status).to.equal(204);
      expect(deleted.text).to.equal('');
      problem(await api('GET', '/v1/providers/rt-oauth/oauth-app'), 404, 'oauth_app_not_found');
      problem(await api('GET', '/v1/providers/nope/oauth-app'), 404, 'provider_not_found');
      problem(await api('DELETE', '/v1/providers/nope/oauth-app'), 404, 'provider_not_found');
      problem(await api('PUT', '/v1/providers/rt-oauth/oauth-app', { body: { client_id: 'cid' } }), 400, 'invalid_input');
    });
  });
});
