import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import { refused, useCliDatabase } from './cli.js';

const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

for (const dialect of dialects) {
  describe(`what the CLI prints from its arguments [${dialect}]`, function () {
    this.timeout(60000);
    const { gw, spawned } = useCliDatabase(dialect);

    before(async () => {
      expect((await gw('orgs', 'create', 'default')).code).to.equal(0);
    });

    it('escapes control characters of an argument echoed in a refusal, on one line', async () => {
      const principal = await gw('tokens', 'issue', '--principal', 'user:\u001b[2Jx');
      refused(principal, 2, /--principal.*'user:\\u001b\[2Jx' is invalid/);
      expect(principal.stderr).to.not.match(RAW_CONTROL);

      const name = await gw('orgs', 'suspend', 'a\nb\u0007');
      refused(name, 1, /^gateway: organization "a\\nb\\u0007" does not exist$/);

      const org = await gw('keys', 'list', '--org', 'x\r\u009bz');
      refused(org, 1, /^gateway: organization "x\\r\\u009bz" does not exist$/);
    });

    it('escapes them as a process of its own too (the terminal sees no raw escape)', async () => {
      const result = await spawned('calls', 'list', '--principal', 'user:\u001b]0;pwned\u0007');
      refused(result, 2, /\\u001b\]0;pwned\\u0007/);
      expect(result.stderr).to.not.match(RAW_CONTROL);
    });

    it('refuses an organization name that differs from an existing one only in case, as a failure of the work (exit 1)', async () => {
      refused(await gw('orgs', 'create', 'DEFAULT'), 1, /^gateway: organization "default" already exists \(names compare case-insensitively\)$/);
      refused(await gw('orgs', 'create', 'default'), 1, /^gateway: organization "default" already exists$/);
      expect(JSON.parse((await gw('orgs', 'list', '--json')).stdout).organizations.map((o: { name: string }) => o.name)).to.deep.equal(['default']);
      // --org finds it whatever the case.
      expect(JSON.parse((await gw('keys', 'list', '--org', 'Default', '--json')).stdout)).to.deep.equal({ keys: [] });
    });
  });
}
