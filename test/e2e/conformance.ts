import { expect } from 'chai';
import path from 'node:path';
import { createMigratedTestDatabase, dialects, type Dialect, type TestDatabase } from '../support/databases.js';
import { closedPort, startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { databaseEnv, initialOwnerKey, projectRoot, runGateway, startGateway, type CliResult, type RunningGateway } from '../support/process.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * The API and the CLI checked from outside, as a black-box tester would: one real `gateway serve`
 * per dialect, plain fetch, real fake providers on 127.0.0.1, and the CLI as a user runs it against the
 * same database. Exact member sets wherever docs/api.md and /v1/openapi.json fix a record ("no extras").
 * The checks are split over the test/e2e/conformance-*.test.ts files, each with its own gateway and
 * database per dialect, so that `mocha --parallel` can run them side by side.
 */

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface Call {
  key?: string | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export const RATE_LIMIT_TOKENS = 150;
export const WEBHOOK_CAP = 3;
export const long = (n: number, c = 'a') => c.repeat(n);
export const receiptMembers = ['call_id', 'identity', 'principal', 'quoted_usd', 'charged_usd', 'latency_ms'];
export const deliveryMembers = ['id', 'event_id', 'event', 'state', 'attempts', 'last_status', 'last_error', 'created_at', 'updated_at'];

/** One problem+json answer with exactly the given status and code. */
export function problem(answer: Answer, status: number, code: string): void {
  expect(answer.status, answer.text).to.equal(status);
  expect(answer.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(answer.body).to.include.keys('type', 'title', 'status', 'detail', 'code');
  expect(answer.body.code, answer.text).to.equal(code);
  expect(answer.body.status).to.equal(status);
  for (const member of ['type', 'title', 'detail']) expect(answer.body[member]).to.be.a('string');
}

export function isoTime(value: unknown): number {
  expect(value).to.be.a('string');
  const ms = Date.parse(value as string);
  expect(ms, String(value)).to.not.be.NaN;
  return ms;
}

/** A CLI failure: non-zero exit, nothing on stdout, one line on stderr. */
export function oneLineFailure(result: CliResult, pattern?: RegExp): void {
  expect(result.code, result.stderr).to.not.equal(0);
  expect(result.stdout).to.equal('');
  expect(result.stderr.trim().split('\n'), result.stderr).to.have.length(1);
  if (pattern) expect(result.stderr).to.match(pattern);
}

/** One part's gateway as its tests see it; the values are set once the part's `before` has run. */
export interface Conformance {
  dialect: Dialect;
  database: TestDatabase;
  receiver: Receiver;
  env: NodeJS.ProcessEnv;
  /** The initial owner key the first start printed. */
  owner: string;
  /** The catalog version the gateway announces. */
  version: string;
  api(method: string, url: string, call?: Call): Promise<Answer>;
  cli(...args: string[]): Promise<CliResult>;
  cliJson(...args: string[]): Promise<any>;
  issueToken(principal: string, key?: string): Promise<{ id: string; token: string }>;
  keyWithRole(role: 'owner' | 'admin' | 'member'): Promise<string>;
}

/**
 * Registers one part of the conformance checks once per dialect, against a `gateway serve` of its own
 * on a migrated database, with the fake providers and the webhook receiver the checks use.
 */
export function conformance(part: string, checks: (c: Conformance) => void): void {
  for (const dialect of dialects) {
    describe(`conformance of the API and the CLI, black box: ${part} [${dialect}]`, function () {
      this.timeout(120000);
      let upstream: FakeProvider;
      let gateway: RunningGateway;

      const c: Conformance = {
        dialect,
        database: undefined as never,
        receiver: undefined as never,
        env: {},
        owner: '',
        version: '',
        async api(method, url, call = {}) {
          const headers: Record<string, string> = { ...call.headers };
          const key = call.key === undefined ? c.owner : call.key;
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
        },
        cli: (...args) => runGateway(args, c.env),
        async cliJson(...args) {
          const result = await c.cli(...args, '--json');
          expect(result.code, result.stderr).to.equal(0);
          return JSON.parse(result.stdout);
        },
        async issueToken(principal, key = c.owner) {
          const answer = await c.api('POST', '/v1/tokens', { key, body: { principal } });
          expect(answer.status, answer.text).to.equal(201);
          return answer.body;
        },
        async keyWithRole(role) {
          return (await c.cliJson('keys', 'create', '--role', role, '--org', 'default')).key;
        },
      };

      before(async function () {
        this.timeout(90000);
        c.database = await createMigratedTestDatabase(dialect);
        upstream = await startFakeProvider();
        c.receiver = await startReceiver();
        upstream.on('GET', '/weather/Paris', { json: { temp: 21, sky: 'clear' } });
        upstream.on('GET', '/quote/ACME', (request) => ({ json: { price: 10, auth: request.headers.authorization ?? null } }));
        upstream.on('GET', '/me', (request) =>
          request.headers.authorization === 'Bearer at-1' ? { json: { id: 'u1', login: 'ada' } } : { status: 401, json: { error: 'bad token' } },
        );
        upstream.on('GET', '/account', (request) =>
          request.headers.authorization === 'Token good-key' ? { json: { id: 'acct-1', name: 'Acme Ltd' } } : { status: 401, json: { error: 'bad key' } },
        );
        const down = `http://127.0.0.1:${await closedPort()}`;
        c.env = {
          ...databaseEnv(c.database),
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
        gateway = await startGateway(c.env);
        c.owner = initialOwnerKey(c.database);
        c.version = (await fetch(`${gateway.url}/health`)).headers.get('svc-catalog-version')!;
      });

      after(async () => {
        await gateway?.stop();
        await upstream?.close();
        await c.receiver?.close();
        await c.database?.drop();
      });

      checks(c);
    });
  }
}
