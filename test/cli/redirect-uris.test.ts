import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import { startGateway, type CliResult } from '../support/process.js';
import { useCliDatabase } from './cli.js';

function refusedWithOneLine(result: CliResult, pattern: RegExp, exitCode = 1): void {
  expect(result.code, result.stderr).to.equal(exitCode);
  expect(result.stdout).to.equal('');
  expect(result.stderr.trim().split('\n'), result.stderr).to.have.length(1);
  expect(result.stderr).to.match(pattern);
}

for (const dialect of dialects) {
  describe(`gateway redirect-uris commands [${dialect}]`, function () {
    this.timeout(120000);
    const { env, gw } = useCliDatabase(dialect);
    const json = async (...args: string[]) => {
      const result = await gw(...args, '--json');
      expect(result.code, result.stderr).to.equal(0);
      return JSON.parse(result.stdout);
    };

    before(async () => {
      expect((await gw('orgs', 'create', 'acme')).code).to.equal(0);
    });

    it('lists, sets, adds and removes entries, printing {redirect_uris} with --json', async () => {
      expect(await json('redirect-uris', 'list')).to.deep.equal({ redirect_uris: [] });
      expect((await gw('redirect-uris', 'list')).stdout.trim()).to.equal('(no redirect URIs allowed)');

      expect(await json('redirect-uris', 'set', 'https://app.example.com/cb', 'HTTPS://APP.example.com:443/cb', 'http://localhost:3000/cb')).to.deep.equal({
        redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb'],
      });
      expect(await json('redirect-uris', 'add', 'https://app.example.com/other')).to.deep.equal({
        redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb', 'https://app.example.com/other'],
      });
      expect(await json('redirect-uris', 'add', 'https://app.example.com:443/cb')).to.deep.equal({
        redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb', 'https://app.example.com/other'],
      });
      const removed = await gw('redirect-uris', 'remove', 'https://App.Example.com/other');
      expect(removed.code, removed.stderr).to.equal(0);
      expect(removed.stdout.trim().split('\n')).to.deep.equal(['https://app.example.com/cb', 'http://localhost:3000/cb']);
    });

    it('refuses a bad entry (exit 2: a usage error), or removing one not on the list (exit 1), with one line, changing nothing', async () => {
      refusedWithOneLine(await gw('redirect-uris', 'set', 'https://fine.example.com/cb', 'http://app.example.com/cb'), /value is invalid for argument 'uris\.\.\.'\. redirect_uris\[1\] \(http:\/\/app\.example\.com\/cb\) must use https/, 2);
      refusedWithOneLine(await gw('redirect-uris', 'add', 'https://app.example.com/cb?next=1'), /must not have a query/, 2);
      refusedWithOneLine(await gw('redirect-uris', 'remove', 'https://app.example.com/cb?next=1'), /must not have a query/, 2);
      refusedWithOneLine(await gw('redirect-uris', 'remove', 'https://nowhere.example.com/cb'), /not on the redirect allowlist/);
      refusedWithOneLine(await gw('redirect-uris', 'list', '--org', 'nope'), /organization "nope" does not exist/);
      // Emptying the list is said outright: set with no URI is refused, as is --clear beside URIs.
      refusedWithOneLine(await gw('redirect-uris', 'set'), /name at least one URI, or use --clear to allow none/, 2);
      refusedWithOneLine(await gw('redirect-uris', 'set', '--clear', 'https://app.example.com/cb'), /--clear takes no URI/, 2);
      expect(await json('redirect-uris', 'list')).to.deep.equal({ redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb'] });
    });

    it('writes the list the API serves, and set --clear empties it', async () => {
      const key = (await json('keys', 'create', '--role', 'member')).key;
      const server = await startGateway(env());
      try {
        const read = async () =>
          (await fetch(`${server.url}/v1/connect/redirect-uris`, { headers: { authorization: `Bearer ${key}` } })).json();
        expect(await read()).to.deep.equal({ redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb'] });
        expect(await json('redirect-uris', 'set', '--clear')).to.deep.equal({ redirect_uris: [] });
        expect(await read()).to.deep.equal({ redirect_uris: [] });
      } finally {
        await server.stop();
      }
    });
  });
}
