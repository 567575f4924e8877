import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORM_KEY } from '../fixtures/run-providers.js';
import { startFakeProvider } from '../support/fake-provider.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const runCatalog = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'run-catalog.yaml');

// One recording upstream behind every provider: whatever reaches it, on any path, is in `upstream.requests`.
const upstream = await startFakeProvider();
after(() => upstream.close());

const config = {
  catalog: { files: [runCatalog] },
  upstream: { timeout_ms: 2000 },
  providers: Object.fromEntries(['rt-open', 'rt-mirror', 'rt-down', 'rt-paid', 'rt-keyq', 'rt-oauth', 'github'].map((slug) => [slug, { base_url: upstream.url }])),
};

async function countCalls(h: Harness): Promise<number> {
  return Number((await h.gateway.db.select<{ n: number }>('SELECT COUNT(*) AS n FROM calls'))[0].n);
}

function run(h: Harness, task: string, payload: unknown, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload: payload as object, headers });
}

/** JSON text of `levels` arrays, one inside the other, around a number (JSON.stringify itself overflows at such depths). */
function nested(levels: number): string {
  return `${'['.repeat(levels)}1${']'.repeat(levels)}`;
}

/** Sends the run and expects 400 invalid_input naming `field`, with no call recorded and nothing sent upstream. */
async function refusedBeforeAnything(h: Harness, task: string, payload: unknown, field: string, headers: Record<string, string> = {}) {
  const calls = await countCalls(h);
  const body = problem(await run(h, task, payload, headers), 400, 'invalid_input');
  expect(body.invalid_params.map((p: { name: string }) => p.name), JSON.stringify(body)).to.deep.equal([field]);
  expect(body).to.not.have.property('call_id');
  expect(await countCalls(h)).to.equal(calls);
  expect(upstream.requests, JSON.stringify(upstream.requests.map((r) => r.path))).to.have.length(0);
  return body;
}

eachDialect(
  'run: task input that must be refused before anything is written or sent',
  (h) => {
    beforeEach(() => upstream.reset());

    it('refuses NUL in any string of the input, a path field, a query field or deep inside, naming the field', async () => {
      await refusedBeforeAnything(h(), 'rt-open.weather.now', { city: 'Os\u0000lo' }, 'city');
      await refusedBeforeAnything(h(), 'rt-mirror.weather.now', { city: 'Oslo\u0000' }, 'city');
      await refusedBeforeAnything(h(), 'rt-open.slow.get', { n: 1, note: { lines: ['fine', 'not\u0000fine'] } }, 'note.lines[1]');
      const body = await refusedBeforeAnything(h(), 'rt-open.slow.get', { ['na\u0000me']: 1 }, 'na\u0000me');
      expect(body.invalid_params[0].reason).to.match(/name must not contain a NUL/);
    });

    it('refuses a lone surrogate, in a path field too (it used to leave the call pending), naming the field', async () => {
      const body = await refusedBeforeAnything(h(), 'rt-open.weather.now', { city: 'x\ud800' }, 'city');
      expect(body.invalid_params[0].reason).to.match(/lone surrogate/);
      await refusedBeforeAnything(h(), 'rt-mirror.weather.now', { city: '\udfffOslo' }, 'city');
      await refusedBeforeAnything(h(), 'rt-paid.order.place', { account: 'a1', symbol: 'ACME\udc00', quantity: 1 }, 'symbol', { 'svc-credential': 'own-key-1' });
      const pending = await h().gateway.db.select("SELECT id FROM calls WHERE outcome = 'pending'");
      expect(pending).to.have.length(0);
    });

    it('refuses input nested 10,000 deep, and deeper than 64 levels, but takes 64', async () => {
      const deep = await refusedBeforeAnything(h(), 'rt-open.slow.get', `{"deep":${nested(10000)}}`, 'deep');
      expect(deep.invalid_params[0].reason).to.equal('is nested deeper than 64 levels');
      // The body object is the first level: 63 arrays inside it make 64, 64 arrays make 65.
      await refusedBeforeAnything(h(), 'rt-open.slow.get', `{"deep":${nested(64)}}`, 'deep');
      upstream.on('GET', '/slow', { json: { ok: true } });
      const taken = await run(h(), 'rt-open.slow.get', `{"deep":${nested(63)}}`);
      expect(taken.statusCode, taken.payload).to.equal(200);
      expect(upstream.requests).to.have.length(1);
    });

    it('refuses JSON nested deeper than 64 levels in the body of any route, as invalid_input', async () => {
      const discover = problem(await h().request({ method: 'POST', url: '/v1/discover', payload: `{"task":"weather","extra":${nested(100)}}` }), 400, 'invalid_input');
      expect(discover.invalid_params).to.deep.equal([{ name: 'payload.extra', reason: 'is nested deeper than 64 levels' }]);
      problem(await h().request({ method: 'POST', url: '/v1/webhooks', payload: nested(10000) }), 400, 'invalid_input');
    });
  },
  { config },
);

eachDialect(
  'run: a path field is exactly one path segment',
  (h) => {
    beforeEach(() => upstream.reset());

    it('refuses ".", ".." and empty path fields naming the field, so the credential never reaches another path', async () => {
      for (const city of ['..', '.']) {
        const body = await refusedBeforeAnything(h(), 'rt-open.weather.now', { city }, 'city');
        expect(body.invalid_params[0].reason).to.match(/one segment of the request path/);
      }
      for (const account of ['..', '.', '']) {
        await refusedBeforeAnything(h(), 'rt-paid.order.place', { account, symbol: 'ACME', quantity: 1 }, 'account', { 'svc-credential': 'own-key-1' });
        await refusedBeforeAnything(h(), 'rt-paid.order.place', { account, symbol: 'ACME', quantity: 1 }, 'account', { 'svc-fallback': 'platform' });
      }
      for (const [owner, repo] of [['..', 'repo'], ['octo', '..'], ['.', 'repo']]) {
        await refusedBeforeAnything(
          h(),
          'github.issues.comment',
          { owner, repo, issue_number: 1, body: 'hello' },
          owner === 'octo' ? 'repo' : 'owner',
          { 'svc-credential': 'ghp_own_token', 'svc-principal': 'user:ada' },
        );
      }
    });

    it('percent-encodes a path field whole, "/" included, and sends it to the declared path only', async () => {
      upstream.on('POST', '/accounts/..%2F..%2Fadmin/orders', { json: { placed: true } });
      const placed = await run(h(), 'rt-paid.order.place', { account: '../../admin', symbol: 'ACME', quantity: 1 }, { 'svc-fallback': 'platform' });
      expect(placed.statusCode, placed.payload).to.equal(200);
      upstream.on('GET', '/weather/a%2Fb%3F%23%252e%252e', { json: { ok: true } });
      const weather = await run(h(), 'rt-open.weather.now', { city: 'a/b?#%2e%2e' });
      expect(weather.statusCode, weather.payload).to.equal(200);
      upstream.on('POST', '/repos/..x/.x./issues/3/comments', { json: { id: 9 } });
      const comment = await run(h(), 'github.issues.comment', { owner: '..x', repo: '.x.', issue_number: 3, body: 'hi' }, {
        'svc-credential': 'ghp_own_token',
        'svc-principal': 'user:ada',
      });
      expect(comment.statusCode, comment.payload).to.equal(200);
      expect(upstream.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([
        'POST /accounts/..%2F..%2Fadmin/orders',
        'GET /weather/a%2Fb%3F%23%252e%252e',
        'POST /repos/..x/.x./issues/3/comments',
      ]);
      expect(upstream.requests[0].headers.authorization).to.equal(`Token ${PLATFORM_KEY}`);
    });
  },
  { config },
);
