import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import { startGateway } from '../support/process.js';
import { refused, useCliDatabase } from './cli.js';

for (const dialect of dialects) {
  describe(`gateway tokens commands [${dialect}]`, function () {
    this.timeout(120000);
    const { env, gw } = useCliDatabase(dialect);

    it('refuses to act before any organization exists', async () => {
      refused(await gw('tokens', 'list'), 1, /no organization exists yet/);
    });

    it('issues a token with --json printing exactly the UserBoundToken record', async () => {
      expect((await gw('orgs', 'create', 'acme')).code).to.equal(0);
      const before = Date.now();
      const result = await gw('tokens', 'issue', '--principal', 'user:ada', '--json');
      expect(result.code, result.stderr).to.equal(0);
      const token = JSON.parse(result.stdout);
      expect(token).to.have.all.keys('id', 'token', 'principal', 'expires_at');
      expect(token.token).to.match(/^gw_user_/);
      expect(token.principal).to.equal('user:ada');
      expect(Date.parse(token.expires_at)).to.be.within(before + 3600_000, Date.now() + 3600_000);

      const short = JSON.parse((await gw('tokens', 'issue', '--principal', 'organization', '--expires-in', '60', '--json')).stdout);
      expect(Date.parse(short.expires_at)).to.be.below(Date.now() + 61_000);

      const text = await gw('tokens', 'issue', '--principal', 'user:bob');
      expect(text.code).to.equal(0);
      expect(text.stdout).to.match(/issued token tok_\S+ for user:bob/);
      expect(text.stdout).to.match(/^gw_user_\S+$/m);
    });

    it('refuses malformed input with one line and exit 2 (a usage error)', async () => {
      refused(await gw('tokens', 'issue'), 2, /--principal/);
      refused(await gw('tokens', 'issue', '--principal', 'user:ada', '--expires-in', 'soon'), 2, /whole number/);
      refused(await gw('tokens', 'issue', '--principal', 'user:ada', '--expires-in', '59'), 2, /--expires-in <seconds>' argument '59' is invalid\. expires_in must be greater than or equal to 60/);
      refused(await gw('tokens', 'issue', '--principal', 'ada'), 2, /--principal.*'ada' is invalid\. principal must be "organization" or "user:<id>"/);
    });

    it('lists live tokens with issued_by "cli" and no secret, and revokes them against a running server', async () => {
      const token = JSON.parse((await gw('tokens', 'issue', '--principal', 'user:carol', '--json')).stdout);
      const listed = await gw('tokens', 'list', '--json');
      expect(listed.code, listed.stderr).to.equal(0);
      expect(listed.stdout).to.not.include(token.token);
      const held = JSON.parse(listed.stdout);
      expect(Object.keys(held)).to.deep.equal(['tokens', 'next_cursor']);
      expect(held.next_cursor).to.equal(null);
      const entries = held.tokens;
      expect(entries[0]).to.deep.equal({ id: token.id, principal: 'user:carol', expires_at: token.expires_at, issued_by: 'cli' });
      expect(entries.every((entry: object) => Object.keys(entry).sort().join() === 'expires_at,id,issued_by,principal')).to.equal(true);
      expect((await gw('tokens', 'list')).stdout).to.match(new RegExp(`${token.id}\\s+user:carol\\s+\\S+\\s+cli`));

      const server = await startGateway(env());
      try {
        const me = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${token.token}` } });
        expect(me.status).to.equal(200);
        expect(((await me.json()) as { principal: string }).principal).to.equal('user:carol');
        const revoked = await gw('tokens', 'revoke', token.id, '--json');
        expect(revoked.code, revoked.stderr).to.equal(0);
        expect(JSON.parse(revoked.stdout)).to.deep.equal({ id: token.id, revoked: true });
        const after = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${token.token}` } });
        expect(after.status).to.equal(401);
        expect(((await after.json()) as { code: string }).code).to.equal('invalid_token');
      } finally {
        await server.stop();
      }
      refused(await gw('tokens', 'revoke', token.id), 1, new RegExp(`no live token ${token.id}`));
      expect(JSON.parse((await gw('tokens', 'list', '--json')).stdout).tokens.map((t: { id: string }) => t.id)).to.not.include(token.id);
    });

    it('needs --org once several organizations exist', async () => {
      expect((await gw('orgs', 'create', 'beta')).code).to.equal(0);
      refused(await gw('tokens', 'list'), 2, /several organizations exist .* --org/);
      expect(JSON.parse((await gw('tokens', 'list', '--org', 'beta', '--json')).stdout)).to.deep.equal({ tokens: [], next_cursor: null });
      const issued = JSON.parse((await gw('tokens', 'issue', '--org', 'beta', '--principal', 'user:ada', '--json')).stdout);
      expect(JSON.parse((await gw('tokens', 'list', '--org', 'beta', '--json')).stdout).tokens.map((t: { id: string }) => t.id)).to.deep.equal([issued.id]);
      refused(await gw('tokens', 'revoke', issued.id, '--org', 'acme'), 1, /no live token/);
      refused(await gw('tokens', 'list', '--org', 'nope'), 1, /organization "nope" does not exist/);
    });
  });
}
