import { expect } from 'chai';
import type { ConnectionStatus } from '../../src/db/repos/connections.js';
import { listApiKeys } from '../../src/domain/api-keys.js';
import type { Catalog } from '../../src/domain/catalog/types.js';
import { issueUserToken } from '../../src/domain/tokens.js';
import { fixtureCatalog } from '../fixtures/discovery/catalog.js';
import { connectionIn } from '../support/builders.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const SUMMARY_AND_RANK = ['id', 'provider', 'capability', 'kind', 'title', 'description', 'price_usd', 'status', 'score', 'matched'];

function connect(h: Harness, principal: string, provider: string, status: ConnectionStatus = 'active'): Promise<string> {
  return connectionIn(h.gateway, { organizationId: h.organizationId, principal, provider, status });
}

/** A principal-bound token issued by the organization's owner key. */
async function userToken(h: Harness, principal: string): Promise<string> {
  const [ownerKey] = await listApiKeys(h.gateway, h.organizationId);
  return (await issueUserToken(h.gateway, h.organizationId, { principal }, ownerKey.id)).token;
}

eachDialect('POST /v1/discover', (h) => {
  const discover = (payload: unknown, headers: Record<string, string | null> = {}) =>
    h().request({ method: 'POST', url: '/v1/discover', payload: payload as object, headers });
  const readyOf = (body: { candidates: Array<{ id: string; ready?: boolean }> }, id: string) => body.candidates.find((c) => c.id === id)?.ready;

  describe('on the built-in catalog', () => {
    it('finds a weather task for "is it going to rain in Lyon tomorrow"', async () => {
      const res = await discover({ task: 'is it going to rain in Lyon tomorrow' });
      expect(res.statusCode).to.equal(200);
      expect(res.json.candidates[0].capability).to.match(/^weather\./);
      expect(res.json.candidates[0].matched).to.include('rain');
    });
  });

  describe('on the discovery fixture catalog', () => {
    let builtin: Catalog;
    before(() => {
      builtin = h().gateway.catalog;
      h().gateway.catalog = fixtureCatalog({ DISCOVERY_TEST_MAPSCO_KEY: 'platform-key' });
    });
    after(() => {
      h().gateway.catalog = builtin;
    });

    it('answers exactly {candidates, near_misses}, each candidate a task summary with score and matched', async () => {
      const res = await discover({ task: 'post a message to the team channel' });
      expect(res.statusCode).to.equal(200);
      expect(Object.keys(res.json).sort()).to.deep.equal(['candidates', 'near_misses']);
      expect(res.json.near_misses).to.deep.equal([]);
      const [first] = res.json.candidates;
      expect(Object.keys(first).sort()).to.deep.equal([...SUMMARY_AND_RANK].sort());
      expect(first).to.include({ id: 'chatco.messages.post', provider: 'chatco', kind: 'action' });
      expect(first.score).to.be.a('number');
      expect(first.matched).to.deep.equal(['post', 'message', 'team', 'channel']);
    });

    it('answers near misses with matched and missed words when nothing qualifies', async () => {
      const res = await discover({ task: 'send a fax to my lawyer' });
      expect(res.statusCode).to.equal(200);
      expect(res.json.candidates).to.deep.equal([]);
      expect(res.json.near_misses.length).to.be.within(1, 5);
      const mail = res.json.near_misses.find((miss: { id: string }) => miss.id === 'mailer.mail.send');
      expect(mail).to.include.keys([...SUMMARY_AND_RANK, 'missed']);
      expect(mail.matched).to.include('send');
      expect(mail.missed).to.include('lawyer');
    });

    it('honours limit, default 5', async () => {
      expect((await discover({ task: 'weather forecast temperature', limit: 1 })).json.candidates).to.have.length(1);
      expect((await discover({ task: 'weather forecast temperature' })).json.candidates).to.have.length(2);
      expect((await discover({ task: 'list issues repository user', limit: 2 })).json.candidates).to.have.length(2);
    });

    it('answers 400 invalid_input naming the field for a bad limit', async () => {
      for (const limit of [0, 51, 1.5, 'five', null]) {
        const body = problem(await discover({ task: 'weather', limit }), 400, 'invalid_input');
        expect(body.invalid_params.map((param: { name: string }) => param.name)).to.deep.equal(['payload.limit']);
      }
    });

    it('answers 400 invalid_input for a missing, empty, over-long or ill-formed task', async () => {
      for (const payload of [{}, { limit: 3 }, { task: '' }, { task: 'x'.repeat(501) }, { task: 42 }, { task: 'weather\u0000now' }, { task: 'weather \ud800' }]) {
        const body = problem(await discover(payload), 400, 'invalid_input');
        expect(body.invalid_params.map((param: { name: string }) => param.name)).to.deep.equal(['payload.task']);
      }
      problem(await discover(undefined), 400, 'invalid_input');
      problem(await discover({ task: 'weather', extra: true }), 400, 'invalid_input');
      expect((await discover({ task: 'x'.repeat(500) })).statusCode).to.equal(200);
    });

    it('gives no ready without a principal, and ready per task once one is named', async () => {
      const res = await discover({ task: 'weather forecast temperature' });
      expect(res.json.candidates[0]).to.not.have.property('ready');
      const named = await discover({ task: 'weather forecast temperature' }, { 'svc-principal': 'user:alice' });
      expect(named.json.candidates.map((c: { ready: boolean }) => c.ready)).to.deep.equal([true, true]);
      problem(await discover({ task: 'weather' }, { 'svc-principal': 'someone' }), 400, 'invalid_input');
    });

    it('makes an account task ready only once the user principal has an active connection to its provider', async () => {
      const job = { task: 'create an issue in my repository' };
      const alice = { 'svc-principal': 'user:alice' };
      expect(readyOf((await discover(job, alice)).json, 'gitco.issues.create')).to.equal(false);
      await connect(h(), 'organization', 'gitco');
      await connect(h(), 'user:alice', 'gitco', 'needs_reauth');
      await connect(h(), 'user:bob', 'gitco');
      expect(readyOf((await discover(job, alice)).json, 'gitco.issues.create')).to.equal(false);
      expect(readyOf((await discover(job, { 'svc-principal': 'organization' })).json, 'gitco.issues.create')).to.equal(false);
      await connect(h(), 'user:alice', 'gitco');
      expect(readyOf((await discover(job, alice)).json, 'gitco.issues.create')).to.equal(true);
    });

    it('makes a data or action task ready with the principal\'s or the organization\'s connection, or a platform credential', async () => {
      const job = { task: 'post a message to the team channel' };
      const carol = { 'svc-principal': 'user:carol' };
      expect(readyOf((await discover(job, carol)).json, 'chatco.messages.post')).to.equal(false);
      await connect(h(), 'user:carol', 'chatco', 'revoked');
      expect(readyOf((await discover(job, carol)).json, 'chatco.messages.post')).to.equal(false);
      await connect(h(), 'organization', 'chatco');
      expect(readyOf((await discover(job, carol)).json, 'chatco.messages.post')).to.equal(true);
      expect(readyOf((await discover(job, { 'svc-principal': 'organization' })).json, 'chatco.messages.post')).to.equal(true);
      expect(readyOf((await discover({ task: 'coordinates of an address' }, carol)).json, 'mapsco.geocode')).to.equal(true);
    });

    it('ranks a ready candidate ahead of a similar one that is not ready, once a principal is named', async () => {
      // Both tasks match these words in the same fields, of the same lengths: equal scores under any parameters.
      const job = { task: 'latitude and longitude of a street' };
      const unnamed = (await discover(job)).json.candidates.map((c: { id: string }) => c.id);
      expect(unnamed.slice(0, 2)).to.deep.equal(['atlas.places.geocode', 'mapsco.geocode']);
      // MapsCo has a platform credential configured, Atlas none: MapsCo can run now.
      const named = (await discover(job, { 'svc-principal': 'user:frank' })).json.candidates;
      expect(named.map((c: { id: string; ready: boolean }) => [c.id, c.ready]).slice(0, 2)).to.deep.equal([['mapsco.geocode', true], ['atlas.places.geocode', false]]);
      expect((await discover({ ...job, limit: 1 }, { 'svc-principal': 'user:frank' })).json.candidates.map((c: { id: string }) => c.id)).to.deep.equal(['mapsco.geocode']);
      await connect(h(), 'organization', 'atlas');
      const both = (await discover(job, { 'svc-principal': 'user:frank' })).json.candidates;
      expect(both.map((c: { id: string }) => c.id).slice(0, 2)).to.deep.equal(['atlas.places.geocode', 'mapsco.geocode']);
    });

    it('lets a principal-bound token discover as itself, and refuses it another principal', async () => {
      const token = await userToken(h(), 'user:dave');
      const auth = { authorization: `Bearer ${token}` };
      const job = { task: 'create an issue in my repository' };
      expect(readyOf((await discover(job, auth)).json, 'gitco.issues.create')).to.equal(false);
      await connect(h(), 'user:dave', 'gitco');
      expect(readyOf((await discover(job, auth)).json, 'gitco.issues.create')).to.equal(true);
      expect(readyOf((await discover(job, { ...auth, 'svc-principal': 'user:dave' })).json, 'gitco.issues.create')).to.equal(true);
      problem(await discover(job, { ...auth, 'svc-principal': 'user:erin' }), 403, 'principal_forbidden');
      problem(await discover(job, { ...auth, 'svc-principal': 'organization' }), 403, 'principal_forbidden');
    });

    it('answers 401 without a bearer credential', async () => {
      problem(await discover({ task: 'weather' }, { authorization: null }), 401, 'unauthenticated');
    });
  });
});
