import { expect } from 'chai';
import fc from 'fast-check';
import type { RequestRoute } from '@hapi/hapi';
import { loadConfig } from '../../src/config/load.js';
import { loadCatalog } from '../../src/domain/catalog/load.js';
import { errorCodes, type ErrorCode } from '../../src/domain/errors.js';
import { startFakeProvider } from '../support/fake-provider.js';
import { eachDialect, problem, type Harness, type InjectResult } from '../support/harness.js';

// Every provider points at a closed local port, so a request that does reach an upstream fails here, never on the internet.
const deadUpstream = 'http://127.0.0.1:9';
const catalog = loadCatalog(loadConfig({ env: {} }));
const providers = Object.fromEntries([...catalog.providers.keys()].map((slug) => [slug, { base_url: deadUpstream }]));

/** Statuses a route may answer with a documented 5xx: the upstream or probe being down is not a gateway fault. */
const documented5xx: ErrorCode[] = ['upstream_error', 'probe_unavailable'];
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 25);

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '', ' ', '..', '%', '%00', 'user:ada', 'organization', 'user:'),
  fc.string({ minLength: 2000, maxLength: 9000 }),
);

/** Encodes for a URL component, with raw percent sequences left in to reach the router's decoder (lone surrogates become invalid UTF-8). */
function pathComponent(value: string): string {
  return [...value].map((char) => (char.isWellFormed() ? encodeURIComponent(char) : '%ED%A0%80')).join('');
}

const headerValue = fc.oneof(fc.string({ maxLength: 300 }).filter((s) => /^[\x20-\x7e]*$/.test(s)), fc.constantFrom('true', 'cost', 'platform', 'organization', 'user:bob'));
const headerNames = ['svc-principal', 'svc-connection', 'svc-account', 'svc-credential', 'svc-max-cost', 'svc-fallback', 'svc-tag', 'svc-order', 'svc-only', 'svc-sort', 'svc-zero-retention', 'svc-version', 'idempotency-key', 'origin', 'content-type'];

const body = fc.oneof(
  fc.constant(undefined),
  fc.json().map((text) => ({ text, type: 'application/json' })),
  fc.anything({ withNullPrototype: false }).map((value) => ({ text: JSON.stringify(value) ?? 'null', type: 'application/json' })),
  fc.dictionary(fc.constantFrom('task', 'limit', 'principal', 'provider', 'url', 'expires_in', 'redirect_uris', 'credential', 'label', 'default', 'scopes', 'client_id', 'client_secret', 'receipt_options'), nasty).map((value) => ({ text: JSON.stringify(value), type: 'application/json' })),
  fc.constantFrom('{', '{"a":', '\u0000', 'not json', '{"task":"\\ud800"}', '[]', 'null').map((text) => ({ text, type: 'application/json' })),
  fc.integer({ min: 60, max: 10000 }).map((levels) => ({ text: `{"task":${'['.repeat(levels)}"x"${']'.repeat(levels)}}`, type: 'application/json' })),
  fc.string().map((text) => ({ text, type: 'text/plain' })),
  fc.constant({ text: 'x'.repeat(1024 * 1024 + 10), type: 'application/json' }),
);

const auth = fc.oneof(
  { weight: 6, arbitrary: fc.constant('owner') },
  { weight: 1, arbitrary: fc.constantFrom(null, 'Bearer ', 'Bearer gw_live_nope', 'Basic Zm9vOmJhcg==', 'Bearer gw_user_x') },
);

function fillPath(route: RequestRoute) {
  const names = [...route.path.matchAll(/\{(\w+)\??\}/g)].map((m) => m[1]);
  return fc.tuple(...names.map(() => nasty), fc.dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 50 }), { maxKeys: 3 })).map(([...parts]) => {
    const query = parts.pop() as Record<string, string>;
    let path = route.path;
    names.forEach((name, i) => {
      path = path.replace(new RegExp(`\\{${name}\\??\\}`), pathComponent(parts[i] as string) || 'x');
    });
    const qs = Object.entries(query).map(([k, v]) => `${pathComponent(k)}=${pathComponent(v)}`).join('&');
    return qs ? `${path}?${qs}` : path;
  });
}

/** The MCP endpoint answers a protocol fault (malformed JSON-RPC) as a JSON-RPC error, as its transport requires. */
function isJsonRpcError(res: InjectResult): boolean {
  return String(res.headers['content-type']).startsWith('application/json') && res.json?.jsonrpc === '2.0' && res.json?.error !== undefined;
}

function assertDocumented(res: InjectResult, hosted: boolean, mcp: boolean): void {
  if (hosted || (mcp && isJsonRpcError(res))) {
    expect(res.statusCode, res.payload.slice(0, 200)).to.be.below(500);
    return;
  }
  if (res.statusCode < 400) return;
  expect(String(res.headers['content-type'])).to.match(/^application\/problem\+json/);
  const problemBody = res.json;
  expect(problemBody, res.payload.slice(0, 300)).to.include.keys('type', 'title', 'status', 'detail', 'code');
  expect(problemBody.status).to.equal(res.statusCode);
  const known = errorCodes[problemBody.code as ErrorCode];
  expect(known, `unknown code ${problemBody.code}`).to.not.equal(undefined);
  expect(known[0]).to.equal(res.statusCode);
  if (res.statusCode >= 500) expect(documented5xx, `${res.statusCode} ${res.payload.slice(0, 300)}`).to.include(problemBody.code);
  expect(res.payload).to.not.match(/\bat [\w.<>]+ \(|SELECT |INSERT |SQLITE_|sequelize/i);
}

async function send(h: Harness, request: { method: string; url: string; auth: string | null; headers: Record<string, string>; body?: { text: string; type: string } }) {
  const headers: Record<string, string | null> = { ...request.headers };
  headers.authorization = request.auth === 'owner' ? `Bearer ${h.ownerKey}` : request.auth;
  if (request.body) headers['content-type'] = request.body.type;
  return h.request({ method: request.method, url: request.url, headers, payload: request.body?.text });
}

eachDialect(
  'every route answers random and hostile requests with documented problem+json',
  (h) => {
    it('walks the whole route table', async function () {
      this.timeout(600000);
      const routes = h().server.table().filter((route) => route.path !== '/{p*}');
      expect(routes.length).to.be.greaterThan(1);
      for (const route of routes) {
        const hosted = route.path.startsWith('/v1/hosted/');
        const mcp = route.path === '/v1/mcp';
        await fc.assert(
          fc.asyncProperty(
            fc.record({
              method: fc.oneof({ weight: 4, arbitrary: fc.constant(route.method.toUpperCase()) }, fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE')),
              url: fillPath(route),
              auth,
              headers: fc.dictionary(fc.constantFrom(...headerNames), headerValue, { maxKeys: 4 }),
              body,
            }),
            async (request) => {
              const headers = { ...request.headers };
              if (headers.origin !== undefined) delete headers.origin;
              assertDocumented(await send(h(), { ...request, headers }), hosted, mcp);
            },
          ),
          { numRuns: RUNS_PER_ROUTE },
        );
      }
    });
  },
  { config: { providers } },
);

// Behind every provider for the run-input property: a recording upstream, so a refused input that still went out shows.
const recorder = await startFakeProvider();
after(() => recorder.close());
const activeTaskIds = [...catalog.tasks.values()].filter((task) => task.status === 'active').map((task) => task.id);

/** A harmless JSON value: the poison, not these, must be what the answer names. */
const cleanValue = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.stringMatching(/^[ -~]{0,20}$/));
const fieldName = fc.stringMatching(/^[a-z][a-z_]{0,11}$/).filter((name) => name !== 'receipt_options');

/** Text no input may hold: NUL anywhere in it, or a lone surrogate (high or low) anywhere in it. */
const poisonedText = fc.oneof(
  fc.tuple(fc.stringMatching(/^[ -~]{0,10}$/), fc.stringMatching(/^[ -~]{0,10}$/)).map(([before, after]) => `${before}\u0000${after}`),
  fc
    .tuple(fc.stringMatching(/^[ -~]{0,10}$/), fc.integer({ min: 0xd800, max: 0xdfff }), fc.stringMatching(/^[ -~]{0,10}$/))
    .map(([before, unit, after]) => `${before}${String.fromCharCode(unit)}${after}`),
);

/**
 * A task input with one poison in it, as JSON text (JSON.stringify cannot write ten thousand levels), and the
 * field the answer must name: ill-formed text as a value or a member name, somewhere under clean members and
 * arrays, or nesting 65 to 10,000 levels deep (named at its outermost member, as the run names input fields).
 */
const poisonedInput = fc
  .record({
    clean: fc.dictionary(fieldName, cleanValue, { maxKeys: 4 }),
    field: fieldName,
    under: fc.array(fc.oneof(fieldName, fc.constant(0)), { maxLength: 3 }),
    poison: fc.oneof(
      poisonedText.map((text) => ({ kind: 'value' as const, text })),
      poisonedText.map((text) => ({ kind: 'name' as const, text })),
      fc.integer({ min: 65, max: 10000 }).map((levels) => ({ kind: 'deep' as const, levels })),
    ),
  })
  .map(({ clean, field, under, poison }) => {
    const steps: Array<string | number> = [field, ...under];
    let text =
      poison.kind === 'value'
        ? JSON.stringify(poison.text)
        : poison.kind === 'name'
          ? `{${JSON.stringify(poison.text)}:1}`
          : `${'['.repeat(poison.levels)}1${']'.repeat(poison.levels)}`;
    for (const step of [...under].reverse()) text = typeof step === 'number' ? `[${text}]` : `{${JSON.stringify(step)}:${text}}`;
    const members = Object.entries(clean).filter(([name]) => name !== field).map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
    const named = poison.kind === 'name' ? [...steps, poison.text] : steps;
    const path = poison.kind === 'deep' ? [field] : named;
    const expected = path.reduce<string>((name, step) => (typeof step === 'number' ? `${name}[${step}]` : name ? `${name}.${step}` : step), '');
    return { body: `{${[...members, `${JSON.stringify(field)}:${text}`].join(',')}}`, expected };
  });

async function countCalls(h: Harness): Promise<number> {
  return Number((await h.gateway.db.select<{ n: number }>('SELECT COUNT(*) AS n FROM calls'))[0].n);
}

eachDialect(
  'a run input holding NUL, a lone surrogate or deep nesting is 400 before anything is written or sent',
  (h) => {
    it('refuses it on every active task, naming the field, with no call row and no upstream request', async function () {
      this.timeout(600000);
      const calls = await countCalls(h());
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...activeTaskIds), poisonedInput, async (taskId, input) => {
          const res = await h().request({ method: 'POST', url: `/v1/tasks/${taskId}/run`, headers: { 'content-type': 'application/json' }, payload: input.body });
          const body = problem(res, 400, 'invalid_input');
          expect(body.invalid_params.map((p: { name: string }) => p.name), `${taskId} ${input.body.slice(0, 200)}`).to.deep.equal([input.expected]);
        }),
        { numRuns: RUNS_PER_ROUTE * 8 },
      );
      expect(await countCalls(h())).to.equal(calls);
      expect(recorder.requests.map((r) => r.path)).to.deep.equal([]);
    });
  },
  { config: { providers: Object.fromEntries([...catalog.providers.keys()].map((slug) => [slug, { base_url: recorder.url }])), rate_limits: { run: 1_000_000 } } },
);
