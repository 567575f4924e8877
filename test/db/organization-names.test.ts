import { expect } from 'chai';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate, migrator } from '../../src/db/migrator.js';
import { createOrganization, listOrganizations, OrganizationExists } from '../../src/domain/organizations.js';
import { createMigratedTestDatabase, createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';

const BEFORE_IGNORE_CASE = '2026.11.27T02.00.00.create-approvals';

/** Organization names compare case-insensitively, kept by a unique index on lower(name), not by a lookup alone. */
for (const dialect of dialects) {
  describe(`organization names ignore case [${dialect}]`, function () {
    this.timeout(60000);

    describe('on a migrated database', () => {
      let database: TestDatabase;
      let db: Database;
      before(async () => {
        database = await createMigratedTestDatabase(dialect);
        db = await openDatabase(database.url);
      });
      after(async () => {
        await db.close();
        await database.drop();
      });

      it('lets only one of two creations racing with the same name in different case land', async () => {
        const outcomes = await Promise.allSettled([createOrganization({ db }, 'Acme'), createOrganization({ db }, 'acme')]);
        expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
        const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
        expect(refused.reason).to.be.instanceOf(OrganizationExists);
        expect(String(refused.reason.message)).to.match(/^organization "(Acme|acme)" already exists \(names compare case-insensitively\)$/);
        expect((await listOrganizations({ db })).filter((o) => o.name.toLowerCase() === 'acme')).to.have.length(1);
      });
    });

    describe('migrating a database that holds names differing only in case', () => {
      let database: TestDatabase;
      let db: Database;
      before(async () => {
        database = await createTestDatabase(dialect);
        db = await openDatabase(database.url);
        await (await migrator(db)).up({ to: BEFORE_IGNORE_CASE });
      });
      after(async () => {
        await db.close();
        await database.drop();
      });

      it('refuses, naming the clash and what to do', async () => {
        const insert = "INSERT INTO organizations (id, name, display_name, status, created_at, updated_at) VALUES ($1, $2, $2, 'active', 1, 1)";
        await db.execute(insert, ['org_upper', 'Globex']);
        await db.execute(insert, ['org_lower', 'globex']);
        const failure = await migrate(db).then(
          () => null,
          (error: unknown) => error as Error,
        );
        expect(failure?.message).to.match(/names that differ only in case exist \(globex\)/);
      });
    });
  });
}
