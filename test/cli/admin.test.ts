import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import { startGateway } from '../support/process.js';
import { refused, useCliDatabase } from './cli.js';

for (const dialect of dialects) {
  describe(`gateway orgs and keys commands [${dialect}]`, function () {
    this.timeout(120000);
    const { env, gw } = useCliDatabase(dialect);

    it('creates and lists organizations with the documented --json shapes', async () => {
      const created = await gw('orgs', 'create', 'acme', '--json');
      expect(created.code, created.stderr).to.equal(0);
      const org = JSON.parse(created.stdout);
      expect(org).to.have.all.keys('id', 'name');
      expect(org.name).to.equal('acme');

      const listed = JSON.parse((await gw('orgs', 'list', '--json')).stdout);
      expect(Object.keys(listed)).to.deep.equal(['organizations']);
      expect(listed.organizations.map((o: { name: string }) => o.name)).to.deep.equal(['acme']);
      expect((await gw('orgs', 'list')).stdout).to.match(/acme\s+active/);
    });

    it('refuses a duplicate or malformed organization name with one line and a non-zero exit', async () => {
      for (const name of ['acme', 'bad name!']) {
        const result = await gw('orgs', 'create', name);
        expect(result.code).to.not.equal(0);
        expect(result.stderr.trim().split('\n')).to.have.length(1);
      }
    });

    it('creates keys shown once, lists them without secrets, and revokes them against a running server', async () => {
      const created = await gw('keys', 'create', '--role', 'admin', '--json');
      expect(created.code, created.stderr).to.equal(0);
      const key = JSON.parse(created.stdout);
      expect(key).to.have.all.keys('id', 'key', 'role');
      expect(key.role).to.equal('admin');
      expect(key.key).to.match(/^gw_live_/);

      const listed = await gw('keys', 'list', '--json');
      expect(listed.stdout).to.not.include(key.key);
      const keys = JSON.parse(listed.stdout);
      expect(Object.keys(keys)).to.deep.equal(['keys']);
      expect(keys.keys.map((k: { id: string }) => k.id)).to.include(key.id);

      const server = await startGateway(env());
      try {
        const before = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${key.key}` } });
        expect(before.status).to.equal(200);
        expect((await gw('keys', 'revoke', key.id)).code).to.equal(0);
        const after = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${key.key}` } });
        expect(after.status).to.equal(401);
        expect(((await after.json()) as { code: string }).code).to.equal('invalid_token');
      } finally {
        await server.stop();
      }
    });

    it('suspends and resumes an organization, and sets trusted origins', async () => {
      const key = JSON.parse((await gw('keys', 'create', '--role', 'member', '--json')).stdout).key;
      expect((await gw('orgs', 'suspend', 'acme')).code).to.equal(0);
      const server = await startGateway(env());
      try {
        const suspended = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
        expect(suspended.status).to.equal(403);
        expect(((await suspended.json()) as { code: string }).code).to.equal('no_active_organization');
        expect((await gw('orgs', 'resume', 'acme')).code).to.equal(0);
        expect((await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status).to.equal(200);

        const origins = await gw('orgs', 'origins', 'acme', 'https://app.example.com', '--json');
        expect(JSON.parse(origins.stdout).trusted_origins).to.deep.equal(['https://app.example.com']);
        const trusted = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${key}`, origin: 'https://app.example.com' } });
        expect(trusted.status).to.equal(200);
        const untrusted = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${key}`, origin: 'https://other.example.com' } });
        expect(((await untrusted.json()) as { code: string }).code).to.equal('untrusted_origin');
      } finally {
        await server.stop();
      }
      const bad = await gw('orgs', 'origins', 'acme', 'https://app.example.com/path');
      expect(bad.code).to.not.equal(0);
    });

    it('asks for --org once several organizations exist, the same way (exit 2) for every command that acts on one', async () => {
      const key = JSON.parse((await gw('keys', 'create', '--role', 'member', '--json')).stdout);
      const token = JSON.parse((await gw('tokens', 'issue', '--principal', 'user:ada', '--json')).stdout);
      expect((await gw('orgs', 'create', 'second')).code).to.equal(0);
      const ambiguous = [['keys', 'list'], ['keys', 'revoke', key.id], ['tokens', 'revoke', token.id], ['webhooks', 'delete', 'wh_none'], ['redirect-uris', 'remove', 'https://app.example.com/cb']];
      for (const args of ambiguous) refused(await gw(...args), 2, /^gateway: several organizations exist \(acme, second\); name one with --org$/);
      expect((await gw('keys', 'list', '--org', 'second', '--json')).code).to.equal(0);
      expect((await gw('keys', 'revoke', key.id, '--org', 'acme')).code).to.equal(0);
    });

    it('prints help for every command and rejects unknown options with exit 2', async () => {
      for (const args of [['--help'], ['serve', '--help'], ['migrate', '--help'], ['orgs', '--help'], ['keys', 'create', '--help']]) {
        const result = await gw(...args);
        expect(result.code, args.join(' ')).to.equal(0);
        expect(result.stdout).to.match(/Usage: gateway/);
      }
      const wrong = await gw('keys', 'create', '--role', 'emperor');
      expect(wrong.code).to.equal(2);
    });
  });
}
