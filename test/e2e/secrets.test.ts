import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { hashSecret } from '../../src/domain/secrets.js';
import { PLATFORM_KEY, startRunFakes } from '../fixtures/run-providers.js';
import { createTestDatabase, dialects, type Dialect, type TestDatabase } from '../support/databases.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { dumpDatabase } from '../support/storage.js';
import { projectRoot, runGateway, startGateway, type RunningGateway } from '../support/process.js';
import { eventually, startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * The secret-handling bar of the whole service, end to end: a real `gateway serve` process logging at
 * info, every kind of secret put through it (keys, principal-bound tokens, provider credentials, the
 * svc-credential, OAuth tokens and client secrets, webhook and connect-link secrets), errors and
 * upstream failures caused on purpose; then no secret may be read back from the API, the log or a full
 * dump of the database, and the log holds no stack trace, SQL or Authorization header.
 */

const fakes = await startRunFakes();
after(() => fakes.close());

/** Distinctive values the test itself hands the gateway; bearer secrets the gateway mints are added as they appear. */
const given = {
  connectionKey: 'paid-conn-key-Q7xLm2',
  svcCredential: 'svc-cred-value-Zr81Kp',
  keyInQuery: 'key-in-query-Wv39Hd',
  accessToken: 'oauth-access-token-Jc54Tn',
  refreshToken: 'oauth-refresh-token-Bs62Yq',
  clientSecret: 'oauth-client-secret-Fe07Ua',
  refusedKey: 'refused-key-Mh28Xo',
  badBearer: 'gw_live_not-a-real-key-Pk93Ld',
  tooLongCredential: `svc-too-long-Gt45Rb${'x'.repeat(8200)}`,
  nulCredential: 'nul-cred-value-Dn16Cw\u0000',
  nulClientSecret: 'nul-client-secret-Ay70Vi\u0000',
};

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

interface Journey {
  output: string;
  ownerKey: string;
  secrets: Record<string, string>;
  /** Bodies of every API read made after the secrets were created. */
  reads: Reply[];
  /** Bodies of every error answer caused on purpose. */
  errors: Reply[];
  /** Every row of every table, as text. */
  dump: string;
  redirectTarget: FakeProvider;
  /** Webhook receiver answering every delivery with a redirect to `redirectTarget`. */
  redirectingReceiver: Receiver;
}

function env(database: TestDatabase): NodeJS.ProcessEnv {
  return {
    GATEWAY_DATA_DIR: database.dataDir,
    GATEWAY_DATABASE_URL: database.url,
    GATEWAY_SECRET_KEY: 'e2e-secrets-master-key-of-at-least-32-characters',
    GATEWAY_LOG__LEVEL: 'info',
    GATEWAY_CATALOG: path.join(projectRoot, 'test', 'fixtures', 'run-catalog.yaml'),
    GATEWAY_PROVIDERS__RT_PAID__BASE_URL: fakes.paid.url,
    GATEWAY_PROVIDERS__RT_KEYQ__BASE_URL: fakes.keyq.url,
    GATEWAY_PROVIDERS__RT_OAUTH__BASE_URL: fakes.oauth.url,
    GATEWAY_UPSTREAM__TIMEOUT_MS: '2000',
    GATEWAY_WEBHOOKS__ALLOW_PRIVATE_TARGETS: 'true',
    GATEWAY_WEBHOOKS__POLL_INTERVAL_MS: '50',
  };
}

async function send(server: RunningGateway, method: string, route: string, options: { bearer?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function expectStatus(reply: Reply, status: number): Reply {
  expect(reply.status, reply.text.slice(0, 500)).to.equal(status);
  return reply;
}

function answerAsProviders(redirectTarget: FakeProvider): void {
  fakes.reset();
  const echo = (req: { headers: Record<string, unknown> }) => ({ json: { price: 1, echoed: req.headers.authorization } });
  fakes.paid.on('GET', '/account', (req) =>
    req.headers.authorization === `Token ${given.refusedKey}` ? { status: 401, json: { error: 'bad key' } } : { json: { id: 'paid-acct', name: 'Ada Paid' } },
  );
  fakes.paid.on('GET', '/quote/ACME', echo);
  fakes.paid.on('GET', '/quote/BOOM', (req) => ({ status: 500, json: { error: 'exploded', echoed: req.headers.authorization } }));
  fakes.paid.on('GET', '/quote/DENY', (req) => ({ status: 401, json: { error: 'denied', echoed: req.headers.authorization } }));
  fakes.paid.on('GET', '/quote/MOVED', { status: 307, headers: { location: `${redirectTarget.url}/steal` }, json: {} });
  fakes.keyq.on('GET', '/lookup', (req) => ({ json: { found: true, echoed: req.query.key } }));
  fakes.oauth.on('GET', '/me', { json: { id: 'mail-acct', login: 'ada@mail.test' } });
  fakes.oauth.on('GET', '/inbox', (req) =>
    String(req.headers.authorization).endsWith(given.accessToken) && req.query.limit !== '13'
      ? { json: { messages: [], echoed: req.headers.authorization } }
      : { status: 401, json: { error: 'invalid_token' } },
  );
}

const run = (server: RunningGateway, task: string, bearer: string, body: object, headers: Record<string, string> = {}) =>
  send(server, 'POST', `/v1/tasks/${task}/run`, { bearer, body, headers });

async function journey(dialect: Dialect, database: TestDatabase, receiver: Receiver): Promise<Journey> {
  const redirectTarget = await startFakeProvider();
  const redirectingReceiver = await startReceiver(() => ({ status: 307, headers: { location: `${redirectTarget.url}/hook` } }));
  answerAsProviders(redirectTarget);
  const server = await startGateway(env(database));
  const secrets: Record<string, string> = { ...given, platformKey: PLATFORM_KEY, managedClientSecret: process.env.RT_OAUTH_CLIENT_SECRET! };
  const reads: Reply[] = [];
  const errors: Reply[] = [];
  try {
    const ownerKey = readFileSync(path.join(database.dataDir, 'initial-owner-key'), 'utf8').trim();
    const adminCli = await runGateway(['keys', 'create', '--role', 'admin', '--json'], env(database));
    expect(adminCli.code, adminCli.stderr).to.equal(0);
    const adminKey = JSON.parse(adminCli.stdout).key as string;
    secrets.adminKey = adminKey;

    const hook = expectStatus(await send(server, 'POST', '/v1/webhooks', { bearer: adminKey, body: { url: receiver.url } }), 200).json;
    receiver.secret = hook.secret;
    secrets.webhookSecret = hook.secret;
    const redirectingHook = expectStatus(await send(server, 'POST', '/v1/webhooks', { bearer: adminKey, body: { url: redirectingReceiver.url } }), 200).json;
    secrets.redirectingWebhookSecret = redirectingHook.secret;

    const token = expectStatus(await send(server, 'POST', '/v1/tokens', { bearer: ownerKey, body: { principal: 'user:ada' } }), 201).json;
    secrets.userToken = token.token;

    const paid = expectStatus(
      await send(server, 'POST', '/v1/connections', { bearer: ownerKey, body: { provider: 'rt-paid', principal: 'user:ada', credential: given.connectionKey } }),
      200,
    ).json;
    const mail = expectStatus(
      await send(server, 'POST', '/v1/connections', {
        bearer: ownerKey,
        body: {
          provider: 'rt-oauth',
          principal: 'user:ada',
          credential: {
            access_token: given.accessToken,
            refresh_token: given.refreshToken,
            expires_at: new Date(Date.now() + 3600_000).toISOString(),
            scopes: ['profile', 'mail.read'],
          },
        },
      }),
      200,
    ).json;
    expectStatus(await send(server, 'PUT', '/v1/providers/rt-oauth/oauth-app', { bearer: adminKey, body: { client_id: 'org-client', client_secret: given.clientSecret } }), 200);

    // Runs on every kind of credential; the provider echoes the credential back in its answer.
    const onCredential = expectStatus(await run(server, 'rt-paid.quote.get', ownerKey, { symbol: 'ACME' }, { 'svc-credential': given.svcCredential, 'idempotency-key': 'idem-credential' }), 200);
    expect(onCredential.json.output.echoed).to.equal(`Token ${given.svcCredential}`);
    const onConnection = expectStatus(await run(server, 'rt-paid.quote.get', token.token, { symbol: 'ACME' }, { 'idempotency-key': 'idem-connection' }), 200);
    expect(onConnection.json.receipt.identity).to.equal(`connection:${paid.id}`);
    expectStatus(await run(server, 'rt-keyq.lookup', ownerKey, { q: 'x' }, { 'svc-credential': given.keyInQuery }), 200);
    expectStatus(await run(server, 'rt-oauth.inbox.list', token.token, {}), 200);

    // Connect session, its hosted page, Continue (binds the browser, starts OAuth with state) and a callback that fails.
    const session = expectStatus(await send(server, 'POST', '/v1/connect/sessions', { bearer: ownerKey, body: { provider: 'rt-oauth', principal: 'user:bob' } }), 201).json;
    secrets.connectLink = session.url.split('/').pop();
    const linkPath = new URL(session.url).pathname;
    expectStatus(await send(server, 'GET', linkPath), 200);
    const continued = expectStatus(
      await send(server, 'POST', linkPath, { headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      303,
    );
    const authorize = new URL(continued.headers.get('location')!);
    secrets.oauthState = authorize.searchParams.get('state')!;
    const cookie = continued.headers.get('set-cookie')!.split(';')[0];
    secrets.browserCookie = cookie.split('=')[1];
    expectStatus(
      await send(server, 'GET', `/v1/hosted/connect/callback?state=${secrets.oauthState}&code=code-Lx82Pe`, { headers: { cookie } }),
      200,
    );
    secrets.authorizationCode = 'code-Lx82Pe';

    const page = expectStatus(await send(server, 'POST', '/v1/connect/connections-pages', { bearer: ownerKey, body: { principal: 'user:ada' } }), 201).json;
    secrets.connectionsPageLink = page.url.split('/').pop();
    expectStatus(await send(server, 'GET', new URL(page.url).pathname), 200);

    // Errors caused on purpose.
    errors.push(expectStatus(await send(server, 'GET', '/v1/me', { bearer: given.badBearer }), 401));
    // Secrets pasted into a path by mistake: the token where its id belongs, a link with a mis-cased prefix.
    // (The 404 names the id it was given back to the caller who sent it; the log must not keep it.)
    expectStatus(await send(server, 'DELETE', `/v1/tokens/${token.token}`, { bearer: ownerKey }), 404);
    errors.push(expectStatus(await send(server, 'GET', `/V1/hosted/connect/${secrets.connectLink}`), 404));
    errors.push(expectStatus(await run(server, 'rt-paid.quote.get', ownerKey, { symbol: 'ACME' }, { 'svc-credential': given.tooLongCredential }), 400));
    errors.push(expectStatus(await send(server, 'POST', '/v1/connections', { bearer: ownerKey, body: { provider: 'rt-paid', credential: given.nulCredential } }), 400));
    errors.push(expectStatus(await send(server, 'PUT', '/v1/providers/rt-oauth/oauth-app', { bearer: adminKey, body: { client_id: 'x', client_secret: given.nulClientSecret } }), 400));
    errors.push(expectStatus(await send(server, 'POST', '/v1/connections', { bearer: ownerKey, body: { provider: 'rt-paid', credential: given.refusedKey } }), 422));
    errors.push(expectStatus(await run(server, 'rt-paid.quote.get', ownerKey, { symbol: 'BOOM' }, { 'svc-credential': given.svcCredential }), 502));
    errors.push(expectStatus(await run(server, 'rt-paid.quote.get', ownerKey, { symbol: 'MOVED' }, { 'svc-credential': given.svcCredential }), 502));
    errors.push(expectStatus(await run(server, 'rt-paid.quote.get', ownerKey, { symbol: 'DENY' }, { 'svc-credential': given.svcCredential }), 401));
    // Refused OAuth token: connection_invalid with a reconnect link, remembered under the idempotency key.
    const refused = expectStatus(await run(server, 'rt-oauth.inbox.list', token.token, { limit: 13 }, { 'idempotency-key': 'idem-refused' }), 401);
    secrets.reconnectLink = refused.json.reconnect_url.split('/').pop();

    await eventually('the connection events to be delivered', () => receiver.receipts.filter((r) => r.verified).length >= 3, 20000);
    await eventually('the redirecting receiver to be tried', () => redirectingReceiver.receipts.length >= 3, 20000);

    // Everything readable afterwards.
    const calls = expectStatus(await send(server, 'GET', '/v1/calls', { bearer: ownerKey }), 200);
    reads.push(calls);
    for (const call of calls.json.calls as Array<{ id: string }>) {
      reads.push(await send(server, 'GET', `/v1/calls/${call.id}`, { bearer: ownerKey }));
      reads.push(await send(server, 'GET', `/v1/calls/${call.id}/capture`, { bearer: ownerKey }));
    }
    for (const route of [
      '/v1/captures', '/v1/connections', `/v1/connections/${paid.id}`, `/v1/connections/${mail.id}`, '/v1/grants', '/v1/principals',
      '/v1/providers/rt-oauth/oauth-app', '/v1/webhooks', `/v1/webhooks/${hook.id}/deliveries`, '/v1/tokens', '/v1/connect/sessions',
      `/v1/connect/sessions/${session.session_id}`, '/v1/usage', '/v1/me',
    ]) {
      reads.push(expectStatus(await send(server, 'GET', route, { bearer: ownerKey }), 200));
    }
    reads.push(expectStatus(await send(server, 'GET', '/v1/me', { bearer: token.token }), 200));
    // A repeat replays the stored answer (kept encrypted) unchanged.
    const replayed = expectStatus(await run(server, 'rt-paid.quote.get', token.token, { symbol: 'ACME' }, { 'idempotency-key': 'idem-connection' }), 200);
    expect(replayed.json).to.deep.equal(onConnection.json);
    // The same key and body with another svc-credential is another request: the first one's answer is not handed over.
    errors.push(expectStatus(await run(server, 'rt-paid.quote.get', ownerKey, { symbol: 'ACME' }, { 'svc-credential': 'another-credential', 'idempotency-key': 'idem-credential' }), 400));
    expectStatus(await send(server, 'DELETE', `/v1/connections/${mail.id}`, { bearer: ownerKey }), 200);
    expect(await server.stop('SIGTERM')).to.equal(0);
    return { output: server.output(), ownerKey, secrets, reads, errors, dump: await dumpDatabase(dialect, database), redirectTarget, redirectingReceiver };
  } finally {
    await server.stop('SIGKILL');
    await redirectTarget.close();
    await redirectingReceiver.close();
  }
}

/** Secret names found in `text`, with the first place each appears. */
function leaks(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, value]) => text.includes(value.replace('\u0000', '').slice(0, 24)))
    .map(([name, value]) => {
      const at = text.indexOf(value.replace('\u0000', '').slice(0, 24));
      return `${name} in ...${text.slice(Math.max(0, at - 80), at + 40)}...`;
    });
}

for (const dialect of dialects) {
  describe(`secrets never come back out [${dialect}]`, function () {
    this.timeout(180000);
    let database: TestDatabase;
    let receiver: Receiver;
    let seen: Journey;

    before(async () => {
      database = await createTestDatabase(dialect);
      receiver = await startReceiver();
      seen = await journey(dialect, database, receiver);
    });
    after(async () => {
      await receiver?.close();
      await database?.drop();
    });

    it('no API read after creation shows any secret', () => {
      expect(seen.reads.length).to.be.greaterThan(20);
      expect(leaks(seen.reads.map((r) => r.text).join('\n'), { ...seen.secrets, ownerKey: seen.ownerKey })).to.deep.equal([]);
    });

    it('no error answer echoes the secret it was given, and none carries a stack or SQL', () => {
      const text = seen.errors.map((r) => r.text).join('\n');
      expect(seen.errors.every((r) => r.headers.get('content-type')?.startsWith('application/problem+json'))).to.equal(true);
      expect(leaks(text, { ...seen.secrets, ownerKey: seen.ownerKey })).to.deep.equal([]);
      expect(text).to.not.match(/\n\s+at |SELECT|INSERT INTO|SQLITE_/);
    });

    it('redirects are never followed: a credential never reaches another host, a webhook never lands elsewhere', () => {
      expect(seen.redirectingReceiver.receipts.length).to.be.greaterThan(2);
      expect(seen.redirectTarget.requests).to.deep.equal([]);
    });

    it('the log, captured at info, holds request lines but no secret; the owner key only in the first-run banner', () => {
      const lines = seen.output.split('\n');
      const logLines = lines.filter((line) => line.startsWith('{'));
      expect(logLines.some((line) => line.includes('"path":"/v1/tasks/{id}/run"'))).to.equal(true);
      expect(logLines.some((line) => line.includes('"path":"/v1/hosted/connect/{secret}"'))).to.equal(true);
      expect(logLines.some((line) => line.includes('webhook attempt'))).to.equal(true);
      expect(seen.output.split(seen.ownerKey)).to.have.length(2);
      expect(leaks(seen.output.replace(seen.ownerKey, ''), { ...seen.secrets, ownerKey: seen.ownerKey })).to.deep.equal([]);
    });

    it('the log has no stack trace, SQL or Authorization header', () => {
      expect(seen.output).to.not.include('    at ');
      expect(seen.output).to.not.match(/\bSELECT\b|INSERT INTO|DELETE FROM|\bUPDATE \S+ SET\b|SQLITE_|syntax error/);
      // An Authorization header as a logged member, or its value in either scheme the providers use.
      expect(seen.output).to.not.match(/"authorization"\s*:|Bearer \S|Token \S/i);
    });

    it('a full database dump holds only hashes and ciphertexts of the secrets', () => {
      expect(seen.dump).to.include(hashSecret(seen.ownerKey));
      expect(seen.dump).to.include(hashSecret(seen.secrets.userToken));
      expect(seen.dump).to.include(hashSecret(seen.secrets.connectLink));
      expect(seen.dump).to.match(/k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\./);
      expect(leaks(seen.dump, { ...seen.secrets, ownerKey: seen.ownerKey })).to.deep.equal([]);
    });
  });
}
