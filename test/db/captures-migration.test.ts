import { expect } from 'chai';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate, migrator } from '../../src/db/migrator.js';
import { findCapture } from '../../src/db/repos/calls.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';

const BEFORE_BOUNDED = '2026.11.22T02.50.00.webhook-delivery-leases';

/** Captures stored before they were bounded are measured and cut by the migration, so no page reads an unbounded row. */
for (const dialect of dialects) {
  describe(`the bounded-captures migration [${dialect}]`, function () {
    this.timeout(60000);
    let database: TestDatabase;
    let db: Database;

    before(async () => {
      database = await createTestDatabase(dialect);
      db = await openDatabase(database.url);
      await (await migrator(db)).up({ to: BEFORE_BOUNDED });
    });
    after(async () => {
      await db.close();
      await database.drop();
    });

    it('measures every capture and cuts the sides over 65536 bytes to a JSON string of their start', async () => {
      const small = JSON.stringify({ city: 'Oslo' });
      const large = JSON.stringify({ items: Array.from({ length: 20000 }, (_, i) => `item ${i} "quoted"`) });
      const insert = 'INSERT INTO captures (call_id, organization_id, input, output, created_at) VALUES ($1, $2, $3, $4, $5)';
      await db.execute(insert, ['call_small', 'org_m', small, null, 1]);
      await db.execute(insert, ['call_large', 'org_m', small, large, 2]);
      await migrate(db);

      const kept = (await findCapture(db, 'org_m', 'call_small'))!;
      expect(kept).to.include({ input: small, output: null, truncated: '[]' });
      expect(Number(kept.input_bytes)).to.equal(Buffer.byteLength(small));

      const cut = (await findCapture(db, 'org_m', 'call_large'))!;
      expect(cut).to.include({ input: small, truncated: '["output"]' });
      expect(Number(cut.output_bytes)).to.equal(Buffer.byteLength(large));
      const start = JSON.parse(cut.output!) as string;
      expect(large.startsWith(start)).to.equal(true);
      expect(Buffer.byteLength(cut.output!)).to.be.at.most(65536);
      const [row] = await db.select<{ size: number }>("SELECT size FROM captures WHERE call_id = 'call_large'");
      expect(Number(row.size)).to.equal(Buffer.byteLength(small) + Buffer.byteLength(cut.output!));
    });
  });
}
