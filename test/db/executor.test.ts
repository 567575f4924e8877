import { expect } from 'chai';
import { openDatabase, type Database } from '../../src/db/database.js';
import pg from 'pg';
import { adminPostgresUrl, createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';

/** The executor's promises: statements alone commit on their own; a transaction commits whole or not at all. */
for (const dialect of dialects) {
  describe(`the executor: statements and transactions [${dialect}]`, function () {
    this.timeout(60000);
    let database: TestDatabase;
    let db: Database;

    before(async () => {
      database = await createTestDatabase(dialect);
      db = await openDatabase(database.url);
      await db.execute('CREATE TABLE ledger (id VARCHAR(40) PRIMARY KEY, amount BIGINT NOT NULL)');
    });
    after(async () => {
      await db.close();
      await database.drop();
    });
    beforeEach(() => db.execute('DELETE FROM ledger'));

    const ids = async (executor: Pick<Database, 'select'> = db) =>
      (await executor.select<{ id: string }>('SELECT id FROM ledger ORDER BY id')).map((row) => row.id);

    it('commits a transaction whole: its statements see each other, and others see them once it resolves', async () => {
      const answer = await db.transaction(async (tx) => {
        await tx.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['a', 1]);
        expect(await tx.execute('UPDATE ledger SET amount = amount + $2 WHERE id = $1', ['a', 2])).to.equal(1);
        return ids(tx);
      });
      expect(answer).to.deep.equal(['a']);
      expect(await db.select('SELECT id, amount FROM ledger')).to.deep.equal([{ id: 'a', amount: 3 }]);
    });

    it('rolls a transaction back when its work throws, and passes the error on', async () => {
      const failure = await db
        .transaction(async (tx) => {
          await tx.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['b', 1]);
          throw new Error('changed my mind');
        })
        .catch((error: Error) => error);
      expect((failure as Error).message).to.equal('changed my mind');
      expect(await ids()).to.deep.equal([]);
      // A statement the database refuses also rolls back what came before it.
      await db
        .transaction(async (tx) => {
          await tx.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['c', 1]);
          await tx.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['c', 2]);
        })
        .catch(() => undefined);
      expect(await ids()).to.deep.equal([]);
    });

    it('keeps a statement the work did not await inside the transaction: rolled back with it', async () => {
      const failure = await db
        .transaction(async (tx) => {
          void tx.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['unawaited', 1]);
          throw new Error('changed my mind');
        })
        .catch((error: Error) => error);
      expect((failure as Error).message).to.equal('changed my mind');
      expect(await ids()).to.deep.equal([]);
    });

    it('commits a statement the work did not await with the transaction, and refuses one issued after it ended', async () => {
      let kept: Pick<Database, 'execute'> | undefined;
      await db.transaction(async (tx) => {
        kept = tx;
        void tx.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['unawaited', 1]);
      });
      expect(await ids()).to.deep.equal(['unawaited']);
      const late = await kept!.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['late', 1]).catch((error: Error) => error);
      expect((late as Error).message).to.equal('statement issued after its transaction ended');
      expect(await ids()).to.deep.equal(['unawaited']);
    });

    it('runs 30 concurrent transactions and statements beside them without one failing or losing a write', async () => {
      await db.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['total', 0]);
      const transactions = Array.from({ length: 30 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', [`t${String(i).padStart(2, '0')}`, i]);
          await tx.execute("UPDATE ledger SET amount = amount + 1 WHERE id = 'total'");
        }),
      );
      const alone = Array.from({ length: 30 }, (_, i) => db.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', [`s${String(i).padStart(2, '0')}`, i]));
      await Promise.all([...transactions, ...alone]);
      expect(await ids()).to.have.length(61);
      expect(await db.select("SELECT amount FROM ledger WHERE id = 'total'")).to.deep.equal([{ amount: 30 }]);
    });
  });
}

describe('the executor on SQLite: writes of the same moment share one commit', function () {
  this.timeout(60000);
  let database: TestDatabase;
  let db: Database;
  let other: Database;

  before(async () => {
    database = await createTestDatabase('sqlite');
    db = await openDatabase(database.url);
    other = await openDatabase(database.url);
    await db.execute('CREATE TABLE ledger (id VARCHAR(40) PRIMARY KEY, amount BIGINT NOT NULL)');
  });
  after(async () => {
    await Promise.all([db.close(), other.close()]);
    await database.drop();
  });

  it('answers each write only once it is committed: another connection sees every row as soon as its write resolves', async () => {
    const seen = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const id = `w${String(i).padStart(2, '0')}`;
        const [row] = await db.select<{ id: string }>('INSERT INTO ledger (id, amount) VALUES ($1, $2) RETURNING id', [id, i]);
        return (await other.select('SELECT id FROM ledger WHERE id = $1', [row.id])).length;
      }),
    );
    expect(seen).to.deep.equal(new Array(50).fill(1));
  });

  it('lets writes and reads wait out a transaction that holds the write lock, none refused as busy', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['held', 0]);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const traffic = Array.from({ length: 40 }, (_, i) =>
      i % 2 ? db.select('SELECT COUNT(*) AS n FROM ledger') : db.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', [`busy${i}`, i]),
    );
    setTimeout(release, 300);
    const outcomes = await Promise.allSettled([transaction, ...traffic]);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).to.deep.equal([]);
    expect(await other.select("SELECT COUNT(*) AS n FROM ledger WHERE id = 'held' OR id LIKE 'busy%'")).to.deep.equal([{ n: 21 }]);
  });

  it('fails a refused write alone: the writes grouped with it commit, each with its own answer', async () => {
    await db.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['taken', 0]);
    const outcomes = await Promise.allSettled([
      db.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['g1', 1]),
      db.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['taken', 2]),
      db.execute("UPDATE ledger SET amount = amount + 1 WHERE id LIKE 'w%'"),
      db.execute('INSERT INTO ledger (id, amount) VALUES ($1, $2)', ['g2', 3]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[2] as PromiseFulfilledResult<number>).value).to.equal(50);
    expect(await other.select("SELECT id, amount FROM ledger WHERE id IN ('g1', 'g2', 'taken') ORDER BY id")).to.deep.equal([
      { id: 'g1', amount: 1 },
      { id: 'g2', amount: 3 },
      { id: 'taken', amount: 0 },
    ]);
  });
});

describe('the executor on an in-memory SQLite database', () => {
  it('keeps statements and transactions on its one connection, so they see one database', async () => {
    const db = await openDatabase('sqlite::memory:');
    try {
      await db.execute('CREATE TABLE notes (id VARCHAR(10) PRIMARY KEY)');
      await db.transaction((tx) => tx.execute("INSERT INTO notes (id) VALUES ('kept')"));
      await db.transaction((tx) => tx.execute("INSERT INTO notes (id) VALUES ('dropped')").then(() => Promise.reject(new Error('no'))))
        .catch(() => undefined);
      expect(await db.select('SELECT id FROM notes')).to.deep.equal([{ id: 'kept' }]);
    } finally {
      await db.close();
    }
  });
});

describe('the executor on Postgres: its pools', function () {
  this.timeout(60000);

  it('closes every connection it opened, the lookups\' pool with the others', async () => {
    const database = await createTestDatabase('postgres');
    const name = decodeURIComponent(new URL(database.url).pathname.slice(1));
    const admin = new pg.Client({ connectionString: adminPostgresUrl });
    await admin.connect();
    const sessions = async () =>
      Number((await admin.query<{ n: string }>('SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n);
    try {
      const db = await openDatabase(database.url);
      await Promise.all([db.select('SELECT 1'), db.selectRelaxed('SELECT 1'), db.lookups.select('SELECT 1')]);
      expect(await sessions()).to.be.at.least(3);
      await db.close();
      // A backend leaves pg_stat_activity a moment after its client's socket closes.
      for (let waited = 0; (await sessions()) > 0 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await sessions()).to.equal(0);
    } finally {
      await admin.end();
      await database.drop();
    }
  });
});
