import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot, startGateway } from '../support/process.js';
import { conformance, oneLineFailure } from './conformance.js';

conformance('the CLI: redirect-uris, webhooks, calls, catalog, migrate, serve', (c) => {
  const { cli, cliJson } = c;

  describe('the gateway CLI as the README describes it', function () {
    // Each command is a fresh Node process; on a loaded machine a handful of them take a while.
    this.timeout(180000);
    before(() => cliJson('orgs', 'create', 'cli-org'));

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
      const created = await cliJson('webhooks', 'register', `${c.receiver.url}?cli`, '--org', 'cli-org');
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
      const bad = path.join(c.database.dataDir, 'bad-catalog.yaml');
      writeFileSync(bad, 'providers:\n  - slug: Bad Slug\n    name: x\n');
      const [calls, catalog, valid, invalid, missing, status, migrated] = await Promise.all([
        cliJson('calls', 'list', '--org', 'default'),
        cliJson('catalog', 'list'),
        cliJson('catalog', 'validate', path.join(projectRoot, 'test', 'fixtures', 'run-catalog.yaml')),
        cli('catalog', 'validate', bad),
        cli('catalog', 'validate', path.join(c.database.dataDir, 'missing.yaml')),
        cliJson('migrate', '--status'),
        cli('migrate'),
      ]);
      expect(calls).to.be.an('object');
      expect(catalog.version).to.equal(c.version);
      expect(catalog.tasks.map((t: { id: string }) => t.id)).to.include('rt-open.weather.now');
      expect(valid.valid).to.equal(true);
      oneLineFailure(invalid, /bad-catalog\.yaml.*slug.*; /);
      oneLineFailure(missing, /missing\.yaml/);
      expect(status.pending).to.deep.equal([]);
      expect(status.executed).to.be.an('array').that.is.not.empty;
      expect(migrated.code).to.equal(0);
    });

    it('serve [--port N] [--host H] [--no-migrate] starts a second server on the same database', async function () {
      this.timeout(60000);
      const second = await startGateway(c.env, ['--host', '127.0.0.1', '--no-migrate']);
      try {
        expect(second.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(second.output()).to.not.match(/gw_live_/);
        const me = await fetch(`${second.url}/v1/me`, { headers: { authorization: `Bearer ${c.owner}` } });
        expect(me.status).to.equal(200);
      } finally {
        expect(await second.stop()).to.equal(0);
      }
    });
  });
});
