import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { migrate } from '../../src/db/migrator.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { openGateway } from '../../src/domain/gateway.js';
import { createTestDatabase, dialects } from '../support/databases.js';

for (const dialect of dialects) {
  describe(`secret files on disk [${dialect}]`, function () {
    this.timeout(60000);

    it('writes the first-run owner key 0600 even over a world-readable file left from an earlier install', async () => {
      const database = await createTestDatabase(dialect);
      const file = path.join(database.dataDir, 'initial-owner-key');
      writeFileSync(file, 'stale\n', { mode: 0o644 });
      chmodSync(file, 0o644);
      const config = loadConfig({ env: {}, overrides: { database: { url: database.url }, data_dir: database.dataDir, log: { level: 'silent' } } });
      const gateway = await openGateway(config);
      try {
        await migrate(gateway.db);
        const created = await bootstrapIfEmpty(gateway);
        expect(statSync(file).mode & 0o777).to.equal(0o600);
        expect(statSync(path.join(database.dataDir, 'secret.key')).mode & 0o777).to.equal(0o600);
        expect(created!.key).to.match(/^gw_live_/);
      } finally {
        await gateway.db.close();
        await database.drop();
      }
    });
  });
}
