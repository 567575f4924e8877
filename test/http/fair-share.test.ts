import { expect } from 'chai';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '../../src/domain/api-keys.js';
import { createOrganization } from '../../src/domain/organizations.js';
import { eachDialect, problem, type InjectResult } from '../support/harness.js';

const runCatalog = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'run-catalog.yaml');
const MAX_WAITING = 2;

/** An upstream that holds every request to `GET /slow` until `release()`. */
const held: ServerResponse[] = [];
const upstream = createServer((_req, res) => held.push(res));
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const release = () => {
  for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
};
after(() => upstream.close());

const settled = <T>(promise: Promise<T>) => {
  const state: { value?: T } = {};
  void promise.then((value) => (state.value = value));
  return state;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

eachDialect(
  'fair share: an organization in debt waits while another organization is served',
  (h) => {
    let otherKey: string;
    before(async () => {
      const other = await createOrganization(h().gateway, 'other-tenant');
      otherKey = (await createApiKey(h().gateway, other.id, 'member')).key;
    });

    /** A run of builtin.json.extract on a 20,000-character string: some 40 KB read and answered. */
    const costly = () => h().request({ method: 'POST', url: '/v1/tasks/builtin.json.extract/run', payload: { document: 'x'.repeat(20000), path: '' } });
    const me = (key?: string) => h().request({ method: 'GET', url: '/v1/me', ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}) });

    it(`delays an organization in debt while another's request runs, serves the other at once, and refuses past ${MAX_WAITING} waiting`, async () => {
      // Alone, an organization in debt is not held back.
      for (let i = 0; i < 2; i++) expect((await costly()).statusCode).to.equal(200);

      const otherRun = settled(h().request({ method: 'POST', url: '/v1/tasks/rt-open.slow.get/run', payload: {}, headers: { authorization: `Bearer ${otherKey}` } }));
      while (!held.length) await sleep(5);

      // The first organization's requests wait, up to fair_share.max_waiting of them...
      const waiting = [settled(me()), settled(costly())];
      // ...while the other organization's cheap request is answered at once.
      expect((await me(otherKey)).statusCode).to.equal(200);
      await sleep(200);
      expect(waiting.map((request) => request.value)).to.deep.equal([undefined, undefined]);

      // One more is refused, with when to retry.
      const refused = await me();
      expect(problem(refused, 429, 'rate_limited').detail).to.include(`${MAX_WAITING} requests waiting`);
      expect(Number(refused.headers['retry-after'])).to.be.at.least(1);

      // Once the other organization's request has ended, the waiting ones go on, none lost.
      release();
      while (otherRun.value === undefined || waiting.some((request) => request.value === undefined)) await sleep(5);
      expect(otherRun.value.statusCode).to.equal(200);
      expect(waiting.map((request) => (request.value as InjectResult).statusCode)).to.deep.equal([200, 200]);
    });
  },
  {
    config: {
      catalog: { files: [runCatalog] },
      providers: { 'rt-open': { base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` } },
      // 40 KB of debt lasts the whole test; nothing waits for long because of the clock.
      fair_share: { cheap_bytes: 4096, max_debt_bytes: 16384, debt_half_life_ms: 600000, max_waiting: MAX_WAITING, max_wait_ms: 600000 },
    },
  },
);
