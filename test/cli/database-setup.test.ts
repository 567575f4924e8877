import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { migrationNames } from '../../src/db/migrations/index.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { databaseEnv, runGateway } from '../support/process.js';
import { gateway, refused } from './cli.js';

/** Only `migrate` and `serve` create or migrate a database; every other command leaves it as it found it. */
const readers: string[][] = [
  ['orgs', 'list'],
  ['orgs', 'create', 'acme'],
  ['keys', 'list', '--json'],
  ['tokens', 'issue', '--principal', 'user:x', '--json'],
  ['calls', 'list', '--json'],
  ['webhooks', 'list'],
  ['redirect-uris', 'list'],
];

describe('commands on a SQLite database that does not exist', function () {
  this.timeout(60000);
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'gw-missing-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const args of [...readers, ['migrate', '--status']]) {
    it(`gateway ${args.join(' ')} exits 1 naming the database and gateway migrate, creating nothing`, async () => {
      const file = path.join(dir, 'nonexistent', 'dir', 'x.db');
      const env = { GATEWAY_DATABASE_URL: `sqlite://${file}`, GATEWAY_DATA_DIR: path.join(dir, 'data'), GATEWAY_SECRET_KEY: 'setup-test-secret-key-of-at-least-32-chars' };
      refused(await gateway(args, env), 1, new RegExp(`^gateway: no SQLite database ${file.replace(/[.]/g, '\\.')}: create it with gateway migrate$`));
      expect(existsSync(path.join(dir, 'nonexistent')), 'no directory created').to.equal(false);
      expect(existsSync(path.join(dir, 'data')), 'no data directory created').to.equal(false);
    });
  }
});

for (const dialect of dialects) {
  describe(`commands on a database that lacks migrations [${dialect}]`, function () {
    this.timeout(60000);
    let database: TestDatabase;
    let env: NodeJS.ProcessEnv;
    const pendingAll = new RegExp(`lacks ${migrationNames.length} migrations \\(${migrationNames.join(', ').replace(/[.]/g, '\\.')}\\)`);

    before(async () => {
      database = await createTestDatabase(dialect);
      // An empty SQLite file: the database exists, its schema does not.
      if (dialect === 'sqlite') closeSync(openSync(path.join(database.dataDir, 'gateway.db'), 'w', 0o600));
      env = databaseEnv(database);
    });
    after(async () => database.drop());

    for (const args of readers) {
      it(`gateway ${args.join(' ')} exits 1 naming the pending migrations and gateway migrate, migrating nothing`, async () => {
        refused(await gateway(args, env), 1, new RegExp(`^gateway: the ${dialect === 'sqlite' ? 'SQLite' : 'Postgres'} database .*${pendingAll.source}: run gateway migrate$`));
        const status = await gateway(['migrate', '--status', '--json'], env);
        expect(status.code, status.stderr).to.equal(0);
        expect(JSON.parse(status.stdout)).to.deep.equal({ executed: [], pending: migrationNames });
      });
    }

    it('serve --no-migrate exits 1 naming the pending migrations and gateway migrate (as a process)', async () => {
      const result = await runGateway(['serve', '--port', '0', '--no-migrate'], { ...env, GATEWAY_LOG__LEVEL: 'warn' });
      expect(result.code, result.stderr).to.equal(1);
      expect(result.stderr.trim().split('\n'), result.stderr).to.have.length(1);
      expect(result.stderr).to.match(new RegExp(`^gateway: the .*${pendingAll.source}: run gateway migrate, or start without --no-migrate\\n$`));
      expect(JSON.parse((await gateway(['migrate', '--status', '--json'], env)).stdout).executed).to.deep.equal([]);
    });

    it('gateway migrate then sets it up, and the commands work', async () => {
      const migrated = await gateway(['migrate', '--json'], env);
      expect(migrated.code, migrated.stderr).to.equal(0);
      expect(JSON.parse(migrated.stdout)).to.deep.equal({ applied: migrationNames });
      const listed = await gateway(['orgs', 'list', '--json'], env);
      expect(listed.code, listed.stderr).to.equal(0);
      expect(JSON.parse(listed.stdout)).to.deep.equal({ organizations: [] });
    });
  });
}
