import { expect } from 'chai';
import { openDatabase } from '../../src/db/database.js';
import { migrate, migrationStatus } from '../../src/db/migrator.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, dialects } from '../support/databases.js';

for (const dialect of dialects) {
  describe(`migrations [${dialect}]`, function () {
    this.timeout(60000);

    it('applies every migration once when two processes migrate the same empty database at once', async () => {
      const database = await createTestDatabase(dialect);
      const [first, second] = await Promise.all([openDatabase(database.url), openDatabase(database.url)]);
      try {
        const applied = await Promise.all([migrate(first), migrate(second)]);
        expect([...applied[0], ...applied[1]].sort()).to.deep.equal(migrations.map((m) => m.name).sort());
        const status = await migrationStatus(first);
        expect(status.pending).to.deep.equal([]);
        const rows = await first.select<{ name: string }>('SELECT name FROM schema_migrations');
        expect(rows.map((r) => r.name).sort()).to.deep.equal(migrations.map((m) => m.name).sort());
        expect(await migrate(second)).to.deep.equal([]);
      } finally {
        await first.close();
        await second.close();
        await database.drop();
      }
    });

    if (dialect !== 'sqlite') return;
    it('opens one new file from many openings at once: none is refused while another sets WAL mode', async () => {
      const database = await createTestDatabase(dialect);
      const opened = await Promise.allSettled(Array.from({ length: 24 }, () => openDatabase(database.url)));
      try {
        expect(opened.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).to.deep.equal([]);
      } finally {
        for (const o of opened) if (o.status === 'fulfilled') await o.value.close();
        await database.drop();
      }
    });

    it('tunes SQLite connections for WAL with normal sync', async () => {
      const database = await createTestDatabase(dialect);
      const db = await openDatabase(database.url);
      try {
        const [mode] = await db.select<{ journal_mode: string }>('PRAGMA journal_mode');
        const [sync] = await db.select<{ synchronous: number }>('PRAGMA synchronous');
        expect(mode.journal_mode).to.equal('wal');
        expect(Number(sync.synchronous)).to.equal(1);
      } finally {
        await db.close();
      }
    });
  });
}
