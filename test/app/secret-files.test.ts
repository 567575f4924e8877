import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { openMigratedGateway } from '../../src/app/gateway.js';
import { createInitialOwnerKey } from '../../src/app/owner-key.js';
import { createTestDatabase, dialects } from '../support/databases.js';

for (const dialect of dialects) {
  describe(`secret files on disk [${dialect}]`, function () {
    this.timeout(60000);

    it('keeps a key file left from another database (narrowed to 0600) and writes the new key beside it, named after the database', async () => {
      const database = await createTestDatabase(dialect);
      const file = path.join(database.dataDir, 'initial-owner-key');
      writeFileSync(file, 'earlier\n', { mode: 0o644 });
      chmodSync(file, 0o644);
      const config = loadConfig({ env: {}, overrides: { database: { url: database.url }, data_dir: database.dataDir, log: { level: 'silent' } } });
      const gateway = await openMigratedGateway(config);
      try {
        const created = await createInitialOwnerKey(gateway);
        expect(created!.key).to.match(/^gw_live_/);
        expect(readFileSync(file, 'utf8')).to.equal('earlier\n');
        expect(statSync(file).mode & 0o777).to.equal(0o600);
        const label = dialect === 'sqlite' ? 'sqlite-gateway' : `postgres-127.0.0.1-5432-${new URL(database.url).pathname.slice(1)}`;
        expect(created!.file).to.equal(path.join(database.dataDir, `initial-owner-key.${label}`));
        expect(created!.kept).to.deep.equal([file]);
        expect(readFileSync(created!.file!, 'utf8')).to.equal(`${created!.key}\n`);
        expect(statSync(created!.file!).mode & 0o777).to.equal(0o600);
        expect(statSync(path.join(database.dataDir, 'secret.key')).mode & 0o777).to.equal(0o600);
      } finally {
        await gateway.db.close();
        await database.drop();
      }
    });
  });
}
