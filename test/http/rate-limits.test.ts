import net from 'node:net';
import { expect } from 'chai';
import { completeConnectSession } from '../../src/db/repos/connect-sessions.js';
import { backgroundTasks, endedSessionCleanup } from '../../src/domain/background.js';
import { markNeedsReauth } from '../../src/domain/connections/connections.js';
import { createConnectSession } from '../../src/domain/consent/sessions.js';
import { startRunFakes } from '../fixtures/run-providers.js';
import { connectionIn } from '../support/builders.js';
import { fromStartOfMinute, later } from '../support/clock.js';
import { eachDialect, problem, type Harness, type InjectResult } from '../support/harness.js';

const fakes = await startRunFakes();
after(() => fakes.close());

function run(h: Harness, task: string, payload: object, headers: Record<string, string | null> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload, headers });
}

function expectRateLimitHeaders(res: InjectResult, policy: string): void {
  expect(res.headers['ratelimit-policy'], res.payload).to.match(new RegExp(`"${policy}";q=\\d+;w=60`));
  expect(res.headers.ratelimit, res.payload).to.match(/^"[a-z_-]+";r=\d+;t=\d+$/);
}

function remaining(res: InjectResult): number {
  return Number(/;r=(\d+);/.exec(String(res.headers.ratelimit))?.[1]);
}

function expectLimited(res: InjectResult): void {
  problem(res, 429, 'rate_limited');
  expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
  expect(res.headers['ratelimit-policy']).to.be.a('string');
  expect(res.headers.ratelimit).to.match(/;r=0;t=\d+$/);
}

async function count(h: Harness, table: string): Promise<number> {
  return Number((await h.gateway.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
}

async function issueToken(h: Harness, principal: string): Promise<string> {
  const issued = await h.request({ method: 'POST', url: '/v1/tokens', payload: { principal } });
  expect(issued.statusCode, issued.payload).to.equal(201);
  return issued.json.token;
}

eachDialect('rate limits: every run request counts, whatever it answers', (h) => {
  fromStartOfMinute();
  beforeEach(() => fakes.reset());

  it('counts misses, invalid input and grant_required, with RateLimit headers on each, then answers 429', async () => {
    fakes.open.on('GET', '/weather/Oslo', { json: { ok: true } });
    const answers = [
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }),
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-only': 'nowhere' }),
      await run(h(), 'rt-open.weather.now', { city: 17 }),
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-sort': 'nonsense' }),
      await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:eve' }),
      await run(h(), 'no-such.task', {}),
    ];
    expect(answers.map((res) => res.statusCode)).to.deep.equal([200, 404, 400, 400, 403, 404]);
    answers.forEach((res) => expectRateLimitHeaders(res, 'run'));
    expect(answers.map((res) => remaining(res))).to.deep.equal([5, 4, 3, 2, 1, 0]);
    const calls = await count(h(), 'calls');
    const misses = [
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-only': 'nowhere' }),
      await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:eve' }),
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }),
    ];
    misses.forEach(expectLimited);
    expect(await count(h(), 'calls')).to.equal(calls);
    expect(fakes.open.requests).to.have.length(1);
  });
}, { config: fakes.config({ rate_limits: { run: 6 } }) });

eachDialect('rate limits: requests whose body cannot be read count too', (h) => {
  fromStartOfMinute();
  beforeEach(() => fakes.reset());

  it('counts malformed JSON and oversized bodies, with RateLimit headers on each, then answers 429', async () => {
    fakes.open.on('GET', '/weather/Oslo', { json: { ok: true } });
    const raw = (payload: string) =>
      h().request({ method: 'POST', url: '/v1/tasks/rt-open.weather.now/run', payload, headers: { 'content-type': 'application/json' } });
    const answers = [
      await raw('{bad'),
      await raw(JSON.stringify({ city: 'x'.repeat(2048) })),
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }),
      await raw('{bad'),
    ];
    expect(answers.map((res) => res.statusCode)).to.deep.equal([400, 413, 200, 400]);
    answers.forEach((res) => expectRateLimitHeaders(res, 'run'));
    expect(answers.map((res) => remaining(res))).to.deep.equal([3, 2, 1, 0]);
    expectLimited(await raw('{bad'));
    expectLimited(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }));
    expect(fakes.open.requests).to.have.length(1);
  });
}, { config: fakes.config({ rate_limits: { run: 4 }, limits: { max_body_bytes: 1024 } }) });

eachDialect('rate limits: a spent budget costs no body', (h) => {
  fromStartOfMinute();
  before(() => h().server.start());

  it('refuses a run past a budget already spent this window before its body is read, counting nothing more', async () => {
    fakes.reset();
    fakes.open.on('GET', '/weather/Oslo', { json: { ok: true } });
    for (let i = 0; i < 2; i++) expect((await run(h(), 'rt-open.weather.now', { city: 'Oslo' })).statusCode).to.equal(200);
    expectLimited(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }));
    const counted = await h().gateway.db.select<{ hits: number }>("SELECT hits FROM rate_limit_counters WHERE bucket LIKE 'run:org:%'");
    // Headers announcing a large body that never comes: refused at once, not after the body's deadline.
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect({ port: h().server.info.port as number, host: '127.0.0.1' });
      let received = '';
      const timer = setTimeout(() => socket.destroy(), 5000);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(received);
      });
      socket.once('connect', () =>
        socket.write(
          `POST /v1/tasks/rt-open.weather.now/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h().ownerKey}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"city":',
        ),
      );
      socket.on('data', () => socket.end());
    });
    expect(answer).to.match(/^HTTP\/1\.1 429 /);
    expect(answer).to.match(/retry-after: \d+/i).and.match(/ratelimit: "run";r=0;t=\d+/i);
    const after = await h().gateway.db.select<{ hits: number }>("SELECT hits FROM rate_limit_counters WHERE bucket LIKE 'run:org:%'");
    expect(after.map((row) => Number(row.hits))).to.deep.equal(counted.map((row) => Number(row.hits)));
  });
}, { config: fakes.config({ rate_limits: { run: 2 }, server: { public_url: 'http://gateway.test', payload_timeout_ms: 10000 } }) });

eachDialect('rate limits: connect links in run errors', (h) => {
  fromStartOfMinute();
  beforeEach(() => fakes.reset());

  async function sessionsOf(principal: string) {
    return h().gateway.db.select<{ id: string; scopes: string; expires_at: number }>('SELECT id, scopes, expires_at FROM connect_sessions WHERE principal = $1', [principal]);
  }

  it('hands the same link to every grant_required run of a principal, provider and scopes: one session', async () => {
    const links = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const body = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:gus' }), 403, 'grant_required');
      links.add(body.connect_url);
    }
    expect(links.size).to.equal(1);
    expect(await sessionsOf('user:gus')).to.have.length(1);
    // The link works: it opens the consent page.
    const page = await h().request({ method: 'GET', url: new URL([...links][0]).pathname, headers: { authorization: null } });
    expect(page.statusCode).to.equal(200);
    // Other scopes are another session; another principal too.
    const profile = problem(await run(h(), 'rt-oauth.profile.get', {}, { 'svc-principal': 'user:gus' }), 403, 'grant_required');
    expect(links.has(profile.connect_url)).to.equal(false);
    problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:hal' }), 403, 'grant_required');
    expect(await sessionsOf('user:gus')).to.have.length(2);
    expect(await sessionsOf('user:hal')).to.have.length(1);
  });

  it('hands one link to concurrent grant_required runs too', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:una' })));
    expect(new Set(answers.map((res) => problem(res, 403, 'grant_required').connect_url)).size).to.equal(1);
    expect(await sessionsOf('user:una')).to.have.length(1);
  });

  it('makes a new session once the open one has less than half its lifetime left', async () => {
    const first = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:ida' }), 403, 'grant_required');
    const [session] = await sessionsOf('user:ida');
    const halfLife = (h().gateway.config.connect.session_ttl_s * 1000) / 2;
    const left = Number(session.expires_at) - Date.now();
    // Later, as the gateway sees it: half the lifetime and 30 s left, then half and 30 s short of it.
    await later(left - halfLife - 30_000, async () => {
      const still = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:ida' }), 403, 'grant_required');
      expect(still.connect_url).to.equal(first.connect_url);
    });
    await later(left - halfLife + 30_000, async () => {
      const fresh = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:ida' }), 403, 'grant_required');
      expect(fresh.connect_url).to.not.equal(first.connect_url);
    });
    expect(await sessionsOf('user:ida')).to.have.length(2);
  });

  it('never hands out a session made with POST /v1/connect/sessions', async () => {
    const made = await h().request({ method: 'POST', url: '/v1/connect/sessions', payload: { provider: 'rt-oauth', principal: 'user:jo', scopes: ['mail.read'] } });
    expect(made.statusCode, made.payload).to.equal(201);
    expectRateLimitHeaders(made, 'connect_sessions');
    const body = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:jo' }), 403, 'grant_required');
    expect(body.connect_url).to.not.equal(made.json.url);
    expect(await sessionsOf('user:jo')).to.have.length(2);
  });

  it('reuses the link of scope_required and of connection_invalid too', async () => {
    fakes.oauth.on('GET', '/me', { json: { id: 'acct-kim', login: 'kim' } });
    const connected = await h().request({
      method: 'POST',
      url: '/v1/connections',
      payload: { provider: 'rt-oauth', principal: 'user:kim', credential: { access_token: 'kim-token', scopes: ['profile'] } },
    });
    expect(connected.statusCode, connected.payload).to.equal(200);
    expectRateLimitHeaders(connected, 'connections');
    const scopeLinks = new Set<string>();
    for (let i = 0; i < 3; i++) scopeLinks.add(problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:kim' }), 403, 'scope_required').connect_url);
    expect(scopeLinks.size).to.equal(1);
    await markNeedsReauth(h().gateway, connected.json.id);
    const reconnects = new Set<string>();
    for (let i = 0; i < 3; i++) reconnects.add(problem(await run(h(), 'rt-oauth.profile.get', {}, { 'svc-principal': 'user:kim' }), 401, 'connection_invalid').reconnect_url);
    expect(reconnects.size).to.equal(1);
    expect(await sessionsOf('user:kim')).to.have.length(2);
  });

  it('deletes sessions that completed or expired more than 7 days ago, in the background work of serve', async () => {
    expect(backgroundTasks).to.include(endedSessionCleanup);
    problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:open' }), 403, 'grant_required');
    const day = 86_400_000;
    const now = Date.now();
    const lifetime = h().gateway.config.connect.session_ttl_s * 1000;
    const sessionAt = (principal: string, at: number) => createConnectSession(h().gateway, h().organizationId, { provider: 'rt-oauth', principal }, at);
    // Completed 8 days ago; expired 8 and 6 days ago (made a lifetime before that).
    const done = await sessionAt('user:old-done', now - 8 * day - 60_000);
    const connectionId = await connectionIn(h().gateway, { organizationId: h().organizationId, principal: 'user:old-done', provider: 'rt-oauth', at: now - 8 * day });
    expect(await completeConnectSession(h().gateway.db, done.session_id, connectionId, now - 8 * day)).to.equal(true);
    await sessionAt('user:old-expired', now - 8 * day - lifetime);
    await sessionAt('user:recent-expired', now - 6 * day - lifetime);
    const before = await count(h(), 'connect_sessions');
    const task = await endedSessionCleanup.start(h().gateway);
    await task.stop();
    expect(await count(h(), 'connect_sessions')).to.equal(before - 2);
    expect(await sessionsOf('user:old-done')).to.have.length(0);
    expect(await sessionsOf('user:old-expired')).to.have.length(0);
    expect(await sessionsOf('user:recent-expired')).to.have.length(1);
    expect(await sessionsOf('user:open')).to.have.length(1);
  });
}, { config: fakes.config({ rate_limits: { run: 1000 } }) });

eachDialect('rate limits: grant_required runs past the limit', (h) => {
  fromStartOfMinute();

  it('answer 429 with Retry-After and RateLimit headers and make no more sessions', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:lee' });
      problem(res, 403, 'grant_required');
      expectRateLimitHeaders(res, 'run');
    }
    for (let i = 0; i < 3; i++) expectLimited(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:lee' }));
    expect(await count(h(), 'connect_sessions')).to.equal(1);
  });
}, { config: fakes.config({ rate_limits: { run: 4 } }) });

eachDialect('rate limits: per user principal across keys and tokens', (h) => {
  fromStartOfMinute();
  beforeEach(() => fakes.reset());

  it('lets a user principal run rate_limits.per_principal.run times a minute over every key and token, then 429', async () => {
    fakes.open.on('GET', '/weather/Oslo', { json: { ok: true } });
    const token = await issueToken(h(), 'user:max');
    const otherKey = await h().keyWithRole('member');
    const asToken = { authorization: `Bearer ${token}` };
    const runs = [
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-principal': 'user:max' }),
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, asToken),
      await run(h(), 'rt-open.weather.now', { city: 'Oslo', receipt_options: { principal: 'user:max' } }, { authorization: `Bearer ${otherKey}` }),
    ];
    runs.forEach((res) => expect(res.statusCode, res.payload).to.equal(200));
    expect(runs.map((res) => res.json.receipt.principal)).to.deep.equal(['user:max', 'user:max', 'user:max']);
    expect(runs[2].headers['ratelimit-policy']).to.equal('"run";q=100;w=60, "run-principal";q=3;w=60');
    expect(runs[2].headers.ratelimit).to.match(/^"run-principal";r=0;t=\d+$/);

    const callers: Array<Record<string, string>> = [{ 'svc-principal': 'user:max' }, asToken, { authorization: `Bearer ${otherKey}`, 'svc-principal': 'user:max' }];
    for (const headers of callers) {
      const limited = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, headers);
      expectLimited(limited);
      expect(limited.headers.ratelimit).to.match(/^"run-principal";r=0;/);
    }
    expect(fakes.open.requests).to.have.length(3);

    const other = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-principal': 'user:ned' });
    expect(other.statusCode, other.payload).to.equal(200);
    const organization = await run(h(), 'rt-open.weather.now', { city: 'Oslo' });
    expect(organization.statusCode, organization.payload).to.equal(200);
    expect(organization.headers['ratelimit-policy']).to.equal('"run";q=100;w=60');
  });
}, { config: fakes.config({ rate_limits: { run: 100, per_principal: { run: 3 } } }) });

eachDialect('rate limits: every limited class answers with RateLimit headers, errors included', (h) => {
  fromStartOfMinute();

  it('tokens, webhooks, connect_sessions and connections carry them on a 400 too, and count it', async () => {
    const bad = [
      ['tokens', await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'nobody' } })],
      ['webhooks', await h().request({ method: 'POST', url: '/v1/webhooks', payload: { url: 'not a url' } })],
      ['connect_sessions', await h().request({ method: 'POST', url: '/v1/connect/sessions', payload: {} })],
      ['connections', await h().request({ method: 'POST', url: '/v1/connections', payload: { provider: 'rt-paid' } })],
    ] as const;
    for (const [name, res] of bad) {
      problem(res, 400, 'invalid_input');
      expect(res.headers['ratelimit-policy']).to.equal(`"${name}";q=2;w=60`);
      expect(res.headers.ratelimit).to.match(new RegExp(`^"${name}";r=1;t=\\d+$`));
    }
    await issueToken(h(), 'user:ora');
    expectLimited(await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ora' } }));
    const unlimited = await h().request({ method: 'GET', url: '/v1/tokens' });
    expect(unlimited.statusCode).to.equal(200);
    expect(unlimited.headers).to.not.have.property('ratelimit');
  });
}, { config: fakes.config({ rate_limits: { tokens: 2, webhooks: 2, connect_sessions: 2, connections: 2 } }) });
