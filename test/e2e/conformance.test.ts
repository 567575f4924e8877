import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createMigratedTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { closedPort, startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { databaseEnv, initialOwnerKey, projectRoot, runGateway, startGateway, type CliResult, type RunningGateway } from '../support/process.js';
import { eventually, startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * The API and the CLI checked from outside, as a black-box tester would: one real `gateway serve`
 * per dialect, plain fetch, real fake providers on 127.0.0.1, and the CLI as a user runs it against the
 * same database. Exact member sets wherever docs/api.md and /v1/openapi.json fix a record ("no extras").
 */

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

interface Call {
  key?: string | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

const RATE_LIMIT_TOKENS = 150;
const WEBHOOK_CAP = 3;
const long = (n: number, c = 'a') => c.repeat(n);
const receiptMembers = ['call_id', 'identity', 'principal', 'quoted_usd', 'charged_usd', 'latency_ms'];
const deliveryMembers = ['id', 'event_id', 'event', 'state', 'attempts', 'last_status', 'last_error', 'created_at', 'updated_at'];

/** One problem+json answer with exactly the given status and code. */
function problem(answer: Answer, status: number, code: string): void {
  expect(answer.status, answer.text).to.equal(status);
  expect(answer.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(answer.body).to.include.keys('type', 'title', 'status', 'detail', 'code');
  expect(answer.body.code, answer.text).to.equal(code);
  expect(answer.body.status).to.equal(status);
  for (const member of ['type', 'title', 'detail']) expect(answer.body[member]).to.be.a('string');
}

function isoTime(value: unknown): number {
  expect(value).to.be.a('string');
  const ms = Date.parse(value as string);
  expect(ms, String(value)).to.not.be.NaN;
  return ms;
}

/** A CLI failure: non-zero exit, nothing on stdout, one line on stderr. */
function oneLineFailure(result: CliResult, pattern?: RegExp): void {
  expect(result.code, result.stderr).to.not.equal(0);
  expect(result.stdout).to.equal('');
  expect(result.stderr.trim().split('\n'), result.stderr).to.have.length(1);
  if (pattern) expect(result.stderr).to.match(pattern);
}

for (const dialect of dialects) {
  describe(`conformance of the API and the CLI, black box [${dialect}]`, function () {
    this.timeout(120000);
    let database: TestDatabase;
    let upstream: FakeProvider;
    let receiver: Receiver;
    let gateway: RunningGateway;
    let env: NodeJS.ProcessEnv;
    let owner: string;
    let version: string;

    async function api(method: string, url: string, call: Call = {}): Promise<Answer> {
      const headers: Record<string, string> = { ...call.headers };
      const key = call.key === undefined ? owner : call.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body: string | undefined = call.raw;
      if (call.body !== undefined) body = JSON.stringify(call.body);
      if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      const response = await fetch(`${gateway.url}${url}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      return { status: response.status, headers: response.headers, text, body: parsed };
    }

    const cli = (...args: string[]) => runGateway(args, env);
    const cliJson = async (...args: string[]) => {
      const result = await cli(...args, '--json');
      expect(result.code, result.stderr).to.equal(0);
      return JSON.parse(result.stdout);
    };

    async function issueToken(principal: string, key = owner): Promise<{ id: string; token: string }> {
      const answer = await api('POST', '/v1/tokens', { key, body: { principal } });
      expect(answer.status, answer.text).to.equal(201);
      return answer.body;
    }

    async function keyWithRole(role: 'owner' | 'admin' | 'member'): Promise<string> {
      return (await cliJson('keys', 'create', '--role', role, '--org', 'default')).key;
    }

    before(async function () {
      this.timeout(90000);
      database = await createMigratedTestDatabase(dialect);
      upstream = await startFakeProvider();
      receiver = await startReceiver();
      upstream.on('GET', '/weather/Paris', { json: { temp: 21, sky: 'clear' } });
      upstream.on('GET', '/quote/ACME', (request) => ({ json: { price: 10, auth: request.headers.authorization ?? null } }));
      upstream.on('GET', '/me', (request) =>
        request.headers.authorization === 'Bearer at-1' ? { json: { id: 'u1', login: 'ada' } } : { status: 401, json: { error: 'bad token' } },
      );
      upstream.on('GET', '/account', (request) =>
        request.headers.authorization === 'Token good-key' ? { json: { id: 'acct-1', name: 'Acme Ltd' } } : { status: 401, json: { error: 'bad key' } },
      );
      const down = `http://127.0.0.1:${await closedPort()}`;
      env = {
        ...databaseEnv(database),
        GATEWAY_SECRET_KEY: 'conformance-secret-key-of-at-least-32-characters',
        GATEWAY_CATALOG: path.join(projectRoot, 'test', 'fixtures', 'run-catalog.yaml'),
        GATEWAY_PROVIDERS__RT_OPEN__BASE_URL: upstream.url,
        GATEWAY_PROVIDERS__RT_MIRROR__BASE_URL: upstream.url,
        GATEWAY_PROVIDERS__RT_PAID__BASE_URL: upstream.url,
        GATEWAY_PROVIDERS__RT_OAUTH__BASE_URL: upstream.url,
        GATEWAY_PROVIDERS__RT_DOWN__BASE_URL: down,
        GATEWAY_PROVIDERS__RT_KEYQ__BASE_URL: down,
        RT_PAID_PLATFORM_KEY: 'platform-key',
        RT_OAUTH_CLIENT_ID: 'managed-client',
        RT_OAUTH_CLIENT_SECRET: 'managed-secret',
        GATEWAY_RATE_LIMITS__TOKENS: String(RATE_LIMIT_TOKENS),
        GATEWAY_WEBHOOKS__ALLOW_PRIVATE_TARGETS: 'true',
        GATEWAY_WEBHOOKS__MAX_PER_ORG: String(WEBHOOK_CAP),
        GATEWAY_WEBHOOKS__POLL_INTERVAL_MS: '50',
        GATEWAY_WEBHOOKS__RETRY_BASE_MS: '50',
      };
      gateway = await startGateway(env);
      owner = initialOwnerKey(database);
      version = (await fetch(`${gateway.url}/health`)).headers.get('svc-catalog-version')!;
    });

    after(async () => {
      await gateway?.stop();
      await upstream?.close();
      await receiver?.close();
      await database?.drop();
    });

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
          expect(answer.headers.get('svc-catalog-version'), answer.text).to.equal(version);
        }
        problem(await api('GET', '/v1/nowhere'), 404, 'route_not_found');
        const oversizedHeaders = await api('GET', '/v1/me', { headers: { 'x-filler': long(20000) } });
        problem(oversizedHeaders, 413, 'payload_too_large');
        expect(oversizedHeaders.headers.get('svc-catalog-version')).to.equal(version);
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
          ['POST', '/v1/webhooks', { url: `${receiver.url}?member` }],
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
        const created = await api('POST', '/v1/webhooks', { body: { url: receiver.url } });
        expect(created.status, created.text).to.equal(200);
        expect(created.body).to.have.all.keys('id', 'url', 'created_at', 'secret');
        expect(created.body.secret).to.match(/^whsec_/);
        isoTime(created.body.created_at);
        receiver.secret = created.body.secret;

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
        expect(receiver.receipts.some((r) => r.verified)).to.equal(true);

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
          expect((await api('POST', '/v1/webhooks', { body: { url: `${receiver.url}?n=${i}` } })).status).to.equal(200);
        }
        problem(await api('POST', '/v1/webhooks', { body: { url: `${receiver.url}?over` } }), 409, 'webhook_limit_reached');
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

    describe('tasks, capabilities, discovery and run', () => {
      it('GET /v1/tasks pages with next_cursor; inspect answers 200, 404 task_not_found, 410 task_retired and task_broken', async () => {
        const first = await api('GET', '/v1/tasks');
        expect(first.status).to.equal(200);
        expect(first.body).to.have.property('next_cursor');
        if (first.body.next_cursor) {
          const next = await api('GET', `/v1/tasks?cursor=${encodeURIComponent(first.body.next_cursor)}`);
          expect(next.status).to.equal(200);
        }
        const filtered = await api('GET', '/v1/tasks?provider=rt-open&kind=data&capability=rtest.weather.now&q=weather');
        expect(filtered.status).to.equal(200);
        const task = await api('GET', '/v1/tasks/rt-paid.weather.now');
        expect(task.status).to.equal(200);
        expect(task.body).to.include({ id: 'rt-paid.weather.now', price_usd: 0.004 });
        expect(task.body).to.have.property('input');
        problem(await api('GET', '/v1/tasks/nope.nothing'), 404, 'task_not_found');
        problem(await api('GET', '/v1/tasks/rt-open.old.get'), 410, 'task_retired');
        problem(await api('GET', '/v1/tasks/rt-open.bad.get'), 410, 'task_broken');
        expect((await api('GET', '/v1/capabilities/rtest.weather.now')).status).to.equal(200);
        problem(await api('GET', '/v1/capabilities/nope.nothing'), 404, 'capability_not_found');
      });

      it('POST /v1/discover: candidates best first, or an empty list and near_misses', async () => {
        const found = await api('POST', '/v1/discover', { body: { task: 'current weather for a city', limit: 3 } });
        expect(found.status).to.equal(200);
        expect(found.body.candidates).to.be.an('array').that.is.not.empty;
        const none = await api('POST', '/v1/discover', { body: { task: 'book a flight to the moon' } });
        expect(none.status).to.equal(200);
        expect(none.body.candidates).to.deep.equal([]);
        expect(none.body.near_misses).to.be.an('array');
        problem(await api('POST', '/v1/discover', { body: {} }), 400, 'invalid_input');
      });

      it('run answers 200 Run {output, receipt} with the receipt exactly; output unchanged; anonymous identity', async () => {
        const run = await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers: { 'svc-tag': 'conf' } });
        expect(run.status, run.text).to.equal(200);
        expect(run.body).to.have.all.keys('output', 'receipt');
        expect(run.body.output).to.deep.equal({ temp: 21, sky: 'clear' });
        expect(run.body.receipt).to.have.all.keys(...receiptMembers);
        expect(run.body.receipt).to.include({ identity: 'anonymous', principal: 'organization', quoted_usd: 0, charged_usd: 0 });
        expect(run.body.receipt.latency_ms).to.be.a('number');

        const call = await api('GET', `/v1/calls/${run.body.receipt.call_id}`);
        expect(call.status).to.equal(200);
        expect((await api('GET', `/v1/calls/${run.body.receipt.call_id}/capture`)).status).to.equal(200);
        const calls = await api('GET', '/v1/calls?outcome=hit&task=rt-open.weather.now&provider=rt-open&principal=organization');
        expect(calls.status).to.equal(200);
        expect(calls.body).to.have.property('next_cursor');
        expect((await api('GET', '/v1/captures')).status).to.equal(200);
        expect((await api('GET', '/v1/usage')).status).to.equal(200);
        problem(await api('GET', '/v1/calls/call_missing'), 404, 'call_not_found');
        problem(await api('GET', '/v1/calls/call_missing/capture'), 404, 'capture_not_found');
        const zero = await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers: { 'svc-zero-retention': 'true', 'svc-only': 'rt-mirror' } });
        expect(zero.status, zero.text).to.be.oneOf([200, 502]);
      });

      it('run headers are checked against their documented limits', async () => {
        const run = (headers: Record<string, string>) => api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers });
        for (const headers of <Array<Record<string, string>>>[
          { 'svc-connection': long(101) },
          { 'svc-account': long(321) },
          { 'svc-credential': 'abc' },
          { 'svc-credential': long(8193) },
          { 'svc-tag': long(201) },
          { 'idempotency-key': long(256) },
          { 'svc-fallback': 'always' },
          { 'svc-sort': 'price' },
          { 'svc-zero-retention': 'yes' },
          { 'svc-principal': 'bob' },
        ]) {
          problem(await run(headers), 400, 'invalid_input');
        }
        for (const headers of <Array<Record<string, string>>>[{ 'svc-tag': long(200) }, { 'idempotency-key': long(255) }, { 'svc-account': long(320) }]) {
          expect((await run(headers)).body?.code, Object.keys(headers)[0]).to.not.equal('invalid_input');
        }
      });

      it("run's specific errors: principal_required, grant_required, connection_required, no_credential, miss, mismatch, retired, broken, not found", async () => {
        const run = (id: string, body: unknown, headers: Record<string, string> = {}) => api('POST', `/v1/tasks/${id}/run`, { body, headers });
        problem(await run('rt-oauth.inbox.list', {}), 400, 'principal_required');
        problem(await run('rt-oauth.inbox.list', {}, { 'svc-principal': 'organization' }), 400, 'principal_required');
        const grant = await run('rt-oauth.inbox.list', {}, { 'svc-principal': 'user:nobody' });
        problem(grant, 403, 'grant_required');
        problem(await run('rt-keyq.lookup', { q: 'x' }), 403, 'connection_required');
        problem(await run('rt-paid.quote.get', { symbol: 'ACME' }), 402, 'no_credential');
        problem(await run('rt-open.weather.now', { city: 'Paris' }, { 'svc-only': 'nobody' }), 404, 'miss');
        problem(await run('rt-open.weather.now', { city: 'Paris' }, { 'svc-version': '000000000000' }), 409, 'catalog_version_mismatch');
        expect((await run('rt-open.weather.now', { city: 'Paris' }, { 'svc-version': version })).status).to.equal(200);
        problem(await run('rt-open.old.get', {}), 410, 'task_retired');
        problem(await run('rt-open.bad.get', {}), 410, 'task_broken');
        problem(await run('nope.nothing', {}), 404, 'task_not_found');
        problem(await run('rt-open.weather.now', {}), 400, 'invalid_input');
        problem(await run('rt-open.weather.now', { city: 'Paris' }, { 'svc-connection': 'conn_missing' }), 404, 'connection_not_found');
        problem(await run('rt-down.weather.now', { city: 'Paris' }, { 'svc-only': 'rt-down' }), 502, 'upstream_error');
      });

      it('identities and charges: platform, credential, connection; recovery links on grant_required and scope_required', async () => {
        const run = (id: string, body: unknown, headers: Record<string, string> = {}) => api('POST', `/v1/tasks/${id}/run`, { body, headers });
        const platform = await run('rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-fallback': 'platform' });
        expect(platform.status, platform.text).to.equal(200);
        expect(platform.body.receipt).to.include({ identity: 'platform', quoted_usd: 0.002, charged_usd: 0.002 });
        const own = await run('rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-credential': 'caller-key' });
        expect(own.body.receipt).to.include({ identity: 'credential', quoted_usd: 0.002, charged_usd: 0 });
        expect(own.body.output).to.deep.equal({ price: 10, auth: 'Token caller-key' });

        const grant = await run('rt-oauth.profile.get', {}, { 'svc-principal': 'user:olga' });
        problem(grant, 403, 'grant_required');
        expect(grant.body.connect_url).to.match(/^https?:\/\//);
        const connection = await api('POST', '/v1/connections', {
          body: { provider: 'rt-oauth', principal: 'user:olga', credential: { access_token: 'at-1', scopes: ['profile'] } },
        });
        expect(connection.status, connection.text).to.equal(200);
        const viaConnection = await run('rt-oauth.profile.get', {}, { 'svc-principal': 'user:olga' });
        expect(viaConnection.status, viaConnection.text).to.equal(200);
        expect(viaConnection.body.receipt).to.include({ identity: `connection:${connection.body.id}`, principal: 'user:olga', charged_usd: 0 });
        const viaReceiptOptions = await run('rt-oauth.profile.get', { receipt_options: { principal: 'user:olga' } });
        expect(viaReceiptOptions.body.receipt).to.include({ principal: 'user:olga' });
        const scope = await run('rt-oauth.inbox.list', {}, { 'svc-principal': 'user:olga' });
        problem(scope, 403, 'scope_required');
        expect(scope.body.connect_url).to.match(/^https?:\/\//);
        problem(await run('rt-oauth.profile.get', {}, { 'svc-principal': 'organization' }), 400, 'principal_required');
      });

      it('idempotency-key: a repeat answers the first response with the same call_id', async () => {
        const headers = { 'idempotency-key': `conf-${dialect}-${Date.now()}` };
        const first = await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers });
        const again = await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers });
        expect(first.status).to.equal(200);
        expect(again.body.receipt.call_id).to.equal(first.body.receipt.call_id);
        problem(await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Rome' }, headers }), 400, 'invalid_input');
      });
    });

    describe('the gateway CLI as the README describes it', function () {
      // Each command is a fresh Node process; on a loaded machine a handful of them take a while.
      this.timeout(180000);
      it('orgs create --json prints exactly {id, name}; list, suspend, resume, origins', async () => {
        const created = await cliJson('orgs', 'create', 'cli-org');
        expect(created).to.have.all.keys('id', 'name');
        expect(created.name).to.equal('cli-org');
        const listed = await cliJson('orgs', 'list');
        expect(Object.keys(listed)).to.deep.equal(['organizations']);
        expect(listed.organizations.map((o: { name: string }) => o.name)).to.include.members(['default', 'cli-org']);
        expect((await cliJson('orgs', 'suspend', 'cli-org')).status).to.equal('suspended');
        expect((await cliJson('orgs', 'resume', 'cli-org')).status).to.equal('active');
        expect((await cliJson('orgs', 'origins', 'cli-org', 'https://app.example.com')).trusted_origins).to.deep.equal(['https://app.example.com']);
        const [duplicate, badName, unknown] = await Promise.all([
          cli('orgs', 'create', 'cli-org'),
          cli('orgs', 'create', 'bad name!'),
          cli('orgs', 'suspend', 'no-such-org'),
        ]);
        oneLineFailure(duplicate, /already exists/);
        oneLineFailure(badName);
        oneLineFailure(unknown);
      });

      it('keys create --json prints exactly {id, key, role}; --name; list; revoke stops the key; --org picks the organization', async () => {
        const key = await cliJson('keys', 'create', '--role', 'admin', '--name', 'ci', '--org', 'default');
        expect(key).to.have.all.keys('id', 'key', 'role');
        expect(key.role).to.equal('admin');
        expect(key.key).to.match(/^gw_live_/);
        const me = await api('GET', '/v1/me', { key: key.key });
        expect(me.body.organization.name).to.equal('default');
        const listed = await cliJson('keys', 'list', '--org', 'default');
        expect(Object.keys(listed)).to.deep.equal(['keys']);
        expect(listed.keys.map((k: { id: string }) => k.id)).to.include(key.id);
        expect(JSON.stringify(listed)).to.not.include(key.key);
        expect((await cli('keys', 'revoke', key.id, '--org', 'default')).code).to.equal(0);
        problem(await api('GET', '/v1/me', { key: key.key }), 401, 'invalid_token');
        const [badRole, noRole, noOrg, unknown] = await Promise.all([
          cli('keys', 'create', '--role', 'emperor', '--org', 'default'),
          cli('keys', 'create', '--org', 'default'),
          cli('keys', 'list'),
          cli('keys', 'revoke', 'key_missing', '--org', 'default'),
        ]);
        oneLineFailure(badRole, /emperor/);
        oneLineFailure(noRole, /--role/);
        oneLineFailure(noOrg, /--org/);
        oneLineFailure(unknown, /key_missing/);
      });

      it('tokens issue --json prints exactly the UserBoundToken record; --expires-in; list; revoke', async () => {
        const token = await cliJson('tokens', 'issue', '--principal', 'user:cli', '--expires-in', '120', '--org', 'default');
        expect(token).to.have.all.keys('id', 'token', 'principal', 'expires_at');
        expect(isoTime(token.expires_at) - Date.now()).to.be.within(110_000, 121_000);
        expect((await api('GET', '/v1/me', { key: token.token })).body.principal).to.equal('user:cli');
        const listed = await cliJson('tokens', 'list', '--org', 'default');
        expect(Object.keys(listed)).to.deep.equal(['tokens', 'next_cursor']);
        expect(listed.next_cursor).to.equal(null);
        expect(listed.tokens.map((t: { id: string }) => t.id)).to.include(token.id);
        expect(JSON.stringify(listed)).to.not.include(token.token);
        expect((await cli('tokens', 'revoke', token.id, '--org', 'default')).code).to.equal(0);
        problem(await api('GET', '/v1/me', { key: token.token }), 401, 'invalid_token');
        const [short, long_, badPrincipal, noPrincipal, unknown] = await Promise.all([
          cli('tokens', 'issue', '--principal', 'user:cli', '--expires-in', '59', '--org', 'default'),
          cli('tokens', 'issue', '--principal', 'user:cli', '--expires-in', '86401', '--org', 'default'),
          cli('tokens', 'issue', '--principal', 'bob', '--org', 'default'),
          cli('tokens', 'issue', '--org', 'default'),
          cli('tokens', 'revoke', 'tok_missing', '--org', 'default'),
        ]);
        oneLineFailure(short, /expires_in/);
        oneLineFailure(long_, /expires_in/);
        oneLineFailure(badPrincipal, /principal/);
        oneLineFailure(noPrincipal, /--principal/);
        oneLineFailure(unknown, /tok_missing/);
      });

      it('redirect-uris list | set URI... | add URI | remove URI', async () => {
        const set = await cliJson('redirect-uris', 'set', 'https://a.example.com/cb', 'https://b.example.com/cb', '--org', 'cli-org');
        expect(set).to.deep.equal({ redirect_uris: ['https://a.example.com/cb', 'https://b.example.com/cb'] });
        expect(await cliJson('redirect-uris', 'add', 'http://127.0.0.1:8000/cb', '--org', 'cli-org')).to.have.property('redirect_uris').with.length(3);
        expect(await cliJson('redirect-uris', 'remove', 'https://a.example.com/cb', '--org', 'cli-org')).to.deep.equal({
          redirect_uris: ['https://b.example.com/cb', 'http://127.0.0.1:8000/cb'],
        });
        expect(await cliJson('redirect-uris', 'list', '--org', 'cli-org')).to.have.property('redirect_uris').with.length(2);
        const [plainHttp, withQuery] = await Promise.all([
          cli('redirect-uris', 'add', 'http://app.example.com/cb', '--org', 'cli-org'),
          cli('redirect-uris', 'set', 'https://ok.example.com/cb', 'https://x.example.com/cb?q=1', '--org', 'cli-org'),
        ]);
        oneLineFailure(plainHttp, /https/);
        oneLineFailure(withQuery, /query/);
      });

      it('webhooks register URL | list | delete ID | deliveries ID', async () => {
        const created = await cliJson('webhooks', 'register', `${receiver.url}?cli`, '--org', 'cli-org');
        expect(created).to.have.all.keys('id', 'url', 'created_at', 'secret');
        const [listed, deliveries] = await Promise.all([
          cliJson('webhooks', 'list', '--org', 'cli-org'),
          cliJson('webhooks', 'deliveries', created.id, '--org', 'cli-org'),
        ]);
        expect(Object.keys(listed)).to.deep.equal(['webhooks']);
        expect(listed.webhooks.map((w: { id: string }) => w.id)).to.include(created.id);
        expect(JSON.stringify(listed)).to.not.include(created.secret);
        expect(deliveries).to.deep.equal({ deliveries: [] });
        expect(await cliJson('webhooks', 'delete', created.id, '--org', 'cli-org')).to.have.all.keys('id', 'url', 'created_at');
        const [deletedAgain, unknown, ftp] = await Promise.all([
          cli('webhooks', 'delete', created.id, '--org', 'cli-org'),
          cli('webhooks', 'deliveries', 'wh_missing', '--org', 'cli-org'),
          cli('webhooks', 'register', 'ftp://example.com/x', '--org', 'cli-org'),
        ]);
        oneLineFailure(deletedAgain, /webhook/);
        oneLineFailure(unknown, /wh_missing/);
        oneLineFailure(ftp, /refused/);
      });

      it('calls list --json is one JSON document; catalog list and validate; migrate --status', async () => {
        const bad = path.join(database.dataDir, 'bad-catalog.yaml');
        writeFileSync(bad, 'providers:\n  - slug: Bad Slug\n    name: x\n');
        const [calls, catalog, valid, invalid, missing, status, migrated] = await Promise.all([
          cliJson('calls', 'list', '--org', 'default'),
          cliJson('catalog', 'list'),
          cliJson('catalog', 'validate', path.join(projectRoot, 'test', 'fixtures', 'run-catalog.yaml')),
          cli('catalog', 'validate', bad),
          cli('catalog', 'validate', path.join(database.dataDir, 'missing.yaml')),
          cliJson('migrate', '--status'),
          cli('migrate'),
        ]);
        expect(calls).to.be.an('object');
        expect(catalog.version).to.equal(version);
        expect(catalog.tasks.map((t: { id: string }) => t.id)).to.include('rt-open.weather.now');
        expect(valid.valid).to.equal(true);
        oneLineFailure(invalid, /bad-catalog\.yaml.*slug.*; /);
        oneLineFailure(missing, /missing\.yaml/);
        expect(status.pending).to.deep.equal([]);
        expect(status.executed).to.be.an('array').that.is.not.empty;
        expect(migrated.code).to.equal(0);
      });

      it('usage errors are one line on stderr and a non-zero exit', async () => {
        const results = await Promise.all([
          cli('no-such-command'),
          cli('orgs', 'create'),
          cli('tokens', 'issue', '--principal', 'user:a', '--bogus', '--org', 'default'),
          cli('serve', '--port', '0', '--nonsense'),
          cli('serve', '--port', 'abc'),
        ]);
        for (const result of results) oneLineFailure(result);
      });

      it('serve [--port N] [--host H] [--no-migrate] starts a second server on the same database', async function () {
        this.timeout(60000);
        const second = await startGateway(env, ['--host', '127.0.0.1', '--no-migrate']);
        try {
          expect(second.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
          expect(second.output()).to.not.match(/gw_live_/);
          const me = await fetch(`${second.url}/v1/me`, { headers: { authorization: `Bearer ${owner}` } });
          expect(me.status).to.equal(200);
        } finally {
          expect(await second.stop()).to.equal(0);
        }
      });
    });
  });
}
