import { expect } from 'chai';
import { conformance, problem, isoTime, oneLineFailure } from './conformance.js';

conformance('the CLI: orgs, keys, tokens, usage errors', (c) => {
  const { api, cli, cliJson } = c;

  describe('the gateway CLI as the README describes it', function () {
    // Each command is a fresh Node process; on a loaded machine a handful of them take a while.
    this.timeout(180000);
    it('orgs create --json prints exactly {id, name}; list, suspend, resume, origins', async () => {
      const created = await cliJson('orgs', 'create', 'cli-org');
      expect(created).to.have.all.keys('id', 'name');
      expect(created.name).to.equal('cli-org');
      const listed = await cliJson('orgs', 'list');
      expect(Object.keys(listed)).to.deep.equal(['organizations']);
      expect(listed.organizations.map((o: { name: string }) => o.name)).to.include.members(['default', 'cli-org']);
      expect((await cliJson('orgs', 'suspend', 'cli-org')).status).to.equal('suspended');
      expect((await cliJson('orgs', 'resume', 'cli-org')).status).to.equal('active');
      expect((await cliJson('orgs', 'origins', 'cli-org', 'https://app.example.com')).trusted_origins).to.deep.equal(['https://app.example.com']);
      const [duplicate, badName, unknown] = await Promise.all([
        cli('orgs', 'create', 'cli-org'),
        cli('orgs', 'create', 'bad name!'),
        cli('orgs', 'suspend', 'no-such-org'),
      ]);
      oneLineFailure(duplicate, /already exists/);
      oneLineFailure(badName);
      oneLineFailure(unknown);
    });

    it('keys create --json prints exactly {id, key, role}; --name; list; revoke stops the key; --org picks the organization', async () => {
      const key = await cliJson('keys', 'create', '--role', 'admin', '--name', 'ci', '--org', 'default');
      expect(key).to.have.all.keys('id', 'key', 'role');
      expect(key.role).to.equal('admin');
      expect(key.key).to.match(/^gw_live_/);
      const me = await api('GET', '/v1/me', { key: key.key });
      expect(me.body.organization.name).to.equal('default');
      const listed = await cliJson('keys', 'list', '--org', 'default');
      expect(Object.keys(listed)).to.deep.equal(['keys']);
      expect(listed.keys.map((k: { id: string }) => k.id)).to.include(key.id);
      expect(JSON.stringify(listed)).to.not.include(key.key);
      expect((await cli('keys', 'revoke', key.id, '--org', 'default')).code).to.equal(0);
      problem(await api('GET', '/v1/me', { key: key.key }), 401, 'invalid_token');
      const [badRole, noRole, noOrg, unknown] = await Promise.all([
        cli('keys', 'create', '--role', 'emperor', '--org', 'default'),
        cli('keys', 'create', '--org', 'default'),
        cli('keys', 'list'),
        cli('keys', 'revoke', 'key_missing', '--org', 'default'),
      ]);
      oneLineFailure(badRole, /emperor/);
      oneLineFailure(noRole, /--role/);
      oneLineFailure(noOrg, /--org/);
      oneLineFailure(unknown, /key_missing/);
    });

    it('tokens issue --json prints exactly the UserBoundToken record; --expires-in; list; revoke', async () => {
      const token = await cliJson('tokens', 'issue', '--principal', 'user:cli', '--expires-in', '120', '--org', 'default');
      expect(token).to.have.all.keys('id', 'token', 'principal', 'expires_at');
      expect(isoTime(token.expires_at) - Date.now()).to.be.within(110_000, 121_000);
      expect((await api('GET', '/v1/me', { key: token.token })).body.principal).to.equal('user:cli');
      const listed = await cliJson('tokens', 'list', '--org', 'default');
      expect(Object.keys(listed)).to.deep.equal(['tokens', 'next_cursor']);
      expect(listed.next_cursor).to.equal(null);
      expect(listed.tokens.map((t: { id: string }) => t.id)).to.include(token.id);
      expect(JSON.stringify(listed)).to.not.include(token.token);
      expect((await cli('tokens', 'revoke', token.id, '--org', 'default')).code).to.equal(0);
      problem(await api('GET', '/v1/me', { key: token.token }), 401, 'invalid_token');
      const [short, long_, badPrincipal, noPrincipal, unknown] = await Promise.all([
        cli('tokens', 'issue', '--principal', 'user:cli', '--expires-in', '59', '--org', 'default'),
        cli('tokens', 'issue', '--principal', 'user:cli', '--expires-in', '86401', '--org', 'default'),
        cli('tokens', 'issue', '--principal', 'bob', '--org', 'default'),
        cli('tokens', 'issue', '--org', 'default'),
        cli('tokens', 'revoke', 'tok_missing', '--org', 'default'),
      ]);
      oneLineFailure(short, /expires_in/);
      oneLineFailure(long_, /expires_in/);
      oneLineFailure(badPrincipal, /principal/);
      oneLineFailure(noPrincipal, /--principal/);
      oneLineFailure(unknown, /tok_missing/);
    });

    it('usage errors are one line on stderr and a non-zero exit', async () => {
      const results = await Promise.all([
        cli('no-such-command'),
        cli('orgs', 'create'),
        cli('tokens', 'issue', '--principal', 'user:a', '--bogus', '--org', 'default'),
        cli('serve', '--port', '0', '--nonsense'),
        cli('serve', '--port', 'abc'),
      ]);
      for (const result of results) oneLineFailure(result);
    });
  });
});
