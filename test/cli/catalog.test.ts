import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runGateway } from '../support/process.js';
import { gateway } from './cli.js';

describe('gateway catalog commands', function () {
  this.timeout(60000);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const gw = (...args: string[]) => gateway(args, env);
  const fixture = path.resolve('test/fixtures/catalog/extra.yaml');

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-cli-'));
    env = { GATEWAY_DATA_DIR: dir, GATEWAY_DATABASE_URL: `sqlite:${path.join(dir, 'gateway.db')}`, GATEWAY_CATALOG: '' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('validates a good file with a one-line summary and exit 0', async () => {
    const result = await gw('catalog', 'validate', fixture);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim().split('\n')).to.have.length(1);
    expect(result.stdout).to.match(/extra\.yaml is valid: 2 providers, 3 tasks \(catalog version [0-9a-f]{12} with the built-in catalog\)/);
    const json = JSON.parse((await gw('catalog', 'validate', fixture, '--json')).stdout);
    expect(json).to.include({ valid: true, file: fixture, providers: 2, tasks: 3 });
  });

  it('validates a built-in file in place without clashing with itself', async () => {
    const result = await gw('catalog', 'validate', 'config/catalog/30-accounts.yaml');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.match(/^config\/catalog\/30-accounts\.yaml is valid: 3 providers, \d+ tasks/);
  });

  it('lists every problem of a bad file on one stderr line, each with the path of the bad field, and exits 1', async () => {
    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, [
      'tasks:',
      '  - {id: open-meteo.extra, provider: open-meteo, capability: weather.extra, kind: data, title: t, description: d, price_usd: -1, input: {type: object}, request: {method: GET, path: /x}}',
      '  - {id: nobody.task, provider: nobody, capability: x.y, kind: data, title: t, description: d, input: {type: object}, request: {method: GET, path: /x}}',
    ].join('\n'));
    const result = await gw('catalog', 'validate', bad);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.equal(
      `gateway: ${bad}: tasks[0].price_usd: must be greater than or equal to 0; ${bad}: tasks[1].provider: provider nobody is not declared\n`,
    );
    const json = await gw('catalog', 'validate', bad, '--json');
    expect(json.code).to.equal(1);
    expect(JSON.parse(json.stdout).problems).to.have.length(2);
  });

  it('stops serve with one clear line and exit 2 when a catalog file does not validate', async () => {
    const bad = path.join(dir, 'serve-bad.json');
    writeFileSync(bad, JSON.stringify({ providers: [{ slug: 'acme', name: 'Acme', base_url: 'https://a.example', auth: { type: 'magic' } }] }));
    const result = await runGateway(['serve', '--port', '0'], { ...env, GATEWAY_CATALOG: bad });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.equal(`gateway: ${bad}: providers[0].auth.type: must be one of [none, api_key, oauth2]\n`);
  });

  it('refuses a missing file with exit 1 and one line', async () => {
    const result = await gw('catalog', 'validate', path.join(dir, 'nope.yaml'));
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal(`gateway: ${path.join(dir, 'nope.yaml')}: cannot be read\n`);
  });

  it('lists tasks as JSON or a table, filtered by provider and kind, including catalog.files', async () => {
    const all = await gw('catalog', 'list', '--json');
    expect(all.code, all.stderr).to.equal(0);
    const parsed = JSON.parse(all.stdout);
    expect(parsed.version).to.match(/^[0-9a-f]{12}$/);
    expect(parsed.tasks.length).to.be.at.least(40);
    const utilities = JSON.parse((await gw('catalog', 'list', '--kind', 'utility', '--json')).stdout).tasks;
    expect(utilities.length).to.be.greaterThan(0);
    expect(utilities.every((t: { kind: string }) => t.kind === 'utility')).to.equal(true);
    const withFile = await gateway(['catalog', 'list', '--provider', 'acme'], { ...env, GATEWAY_CATALOG: fixture });
    expect(withFile.stdout.split('\n')[0]).to.match(/^ID\s+KIND\s+CAPABILITY\s+PRICE_USD\s+STATUS\s+TITLE$/);
    expect(withFile.stdout).to.match(/acme\.weather\.legacy\s+data\s+acme\.legacy\s+0\s+retired/);
    expect((await gw('catalog', 'list', '--kind', 'nope')).code).to.equal(2);
  });
});
