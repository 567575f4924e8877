import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startFakeProvider } from '../support/fake-provider.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'gw-catalog-files-'));

/** A self-hoster's city-based task (with an output schema) of a capability whose built-in tasks take coordinates. */
const acmeFile = path.join(dir, 'acme.yaml');
writeFileSync(
  acmeFile,
  `providers: [{slug: acme, name: Acme Weather, base_url: https://api.acme.example, auth: {type: none}, zero_retention: false, probe: {method: GET, path: /me}}]
tasks: [{id: acme.weather.current, provider: acme, capability: weather.current, kind: data, title: Current weather for a city, description: "Current temperature, wind and conditions for a named city.", keywords: [forecast, temperature], price_usd: 0.002, scopes: [], input: {type: object, properties: {city: {type: string}, units: {enum: [metric, imperial]}}, required: [city]}, request: {method: GET, path: "/weather/{city}", query: {units: "{units}"}}, output: {type: object, properties: {temperature: {type: number}}, required: [temperature]}, status: active}]
`,
);

/** A second city-based route, so acme can be seen standing in for it. */
const betaFile = path.join(dir, 'beta.yaml');
writeFileSync(
  betaFile,
  `providers: [{slug: beta, name: Beta Weather, base_url: https://api.beta.example, auth: {type: none}, zero_retention: false}]
tasks: [{id: beta.weather.current, provider: beta, capability: weather.current, kind: data, title: City weather, description: Weather for a city., price_usd: 0, input: {type: object, properties: {city: {type: string}}, required: [city]}, request: {method: GET, path: "/w/{city}"}}]
`,
);

const [acme, beta, openMeteo] = await Promise.all([startFakeProvider(), startFakeProvider(), startFakeProvider()]);
after(() => Promise.all([acme, beta, openMeteo].map((fake) => fake.close())));

function run(h: Harness, task: string, payload: object, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload, headers });
}

eachDialect(
  "catalog files: a self-hoster's task beside a built-in task of the same capability with other inputs",
  (h) => {
    beforeEach(() => [acme, beta, openMeteo].forEach((fake) => fake.reset()));

    it('loads and lists the task as a route of the capability', async () => {
      const task = await h().request({ method: 'GET', url: '/v1/tasks/acme.weather.current' });
      expect(task.statusCode).to.equal(200);
      expect(task.json).to.include({ capability: 'weather.current', provider: 'acme' });
      const capability = await h().request({ method: 'GET', url: '/v1/capabilities/weather.current' });
      expect(capability.json.tasks.map((t: { id: string }) => t.id)).to.include.members(['open-meteo.weather.current', 'acme.weather.current']);
    });

    it('runs with a city and sends the request the file declares', async () => {
      acme.on('GET', '/weather/Oslo', { json: { temperature: 3 } });
      const res = await run(h(), 'acme.weather.current', { city: 'Oslo', units: 'metric' });
      expect(res.statusCode).to.equal(200);
      expect(res.json.output).to.deep.equal({ temperature: 3 });
      expect(res.json.receipt).to.include({ identity: 'anonymous', quoted_usd: 0.002 });
      expect(acme.requests.map((r) => [r.path, r.query])).to.deep.equal([['/weather/Oslo', { units: 'metric' }]]);
    });

    it('returns an answer unchanged even when it does not match the output schema the file declares', async () => {
      acme.on('GET', '/weather/Oslo', { json: { temp: 'cold', extra: [1] } });
      const res = await run(h(), 'acme.weather.current', { city: 'Oslo' });
      expect(res.statusCode).to.equal(200);
      expect(res.json.output).to.deep.equal({ temp: 'cold', extra: [1] });
    });

    it('stands in for another route when the input is a city', async () => {
      beta.on('GET', '/w/Oslo', { status: 503, json: {} });
      acme.on('GET', '/weather/Oslo', { json: { from: 'acme' } });
      const res = await run(h(), 'beta.weather.current', { city: 'Oslo' });
      expect(res.statusCode).to.equal(200);
      expect(res.json.output).to.deep.equal({ from: 'acme' });
      expect(beta.requests).to.have.length(1);
    });

    it('is never a route for coordinates: those reach only the tasks that take them', async () => {
      acme.on('GET', '/weather/Oslo', { json: { from: 'acme' } });
      openMeteo.on('GET', '/v1/forecast', { json: { from: 'open-meteo' } });
      const ok = await run(h(), 'open-meteo.weather.current', { latitude: 59.9, longitude: 10.7 }, { 'svc-order': 'acme' });
      expect(ok.json.output).to.deep.equal({ from: 'open-meteo' });
      openMeteo.on('GET', '/v1/forecast', { status: 503, json: {} });
      problem(await run(h(), 'open-meteo.weather.current', { latitude: 59.9, longitude: 10.7 }), 502, 'upstream_error');
      problem(await run(h(), 'open-meteo.weather.current', { latitude: 59.9, longitude: 10.7 }, { 'svc-only': 'acme' }), 404, 'miss');
      expect(acme.requests).to.have.length(0);
    });

    it('answers invalid_input for a run of the task without its required city', async () => {
      const body = problem(await run(h(), 'acme.weather.current', { latitude: 59.9, longitude: 10.7 }), 400, 'invalid_input');
      expect(JSON.stringify(body.invalid_params)).to.contain('city');
      expect(acme.requests).to.have.length(0);
    });
  },
  {
    config: {
      catalog: { files: [acmeFile, betaFile] },
      upstream: { timeout_ms: 1000 },
      providers: { acme: { base_url: acme.url }, beta: { base_url: beta.url }, 'open-meteo': { base_url: openMeteo.url } },
    },
  },
);
