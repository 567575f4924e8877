import pg from 'pg';
import sqlite3 from 'sqlite3';

/**
 * Statements go straight to the driver, prepared once per connection: Sequelize's query path costs
 * 100-170 µs of CPU per statement, the prepared driver statement a fraction of it (docs/foundation.md,
 * BENCHMARKS.md), and every run writes several audit rows.
 */
export interface DirectStatements {
  all<T>(sql: string, bind: unknown[]): Promise<T[]>;
  /** Affected row count. */
  run(sql: string, bind: unknown[]): Promise<number>;
}

/** Statements each committed on their own, and transactions on a connection of their own. */
export interface DirectDriver extends DirectStatements {
  /** Runs `work` in one write transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (statements: DirectStatements) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** `$1` in SQLite is a named parameter numbered by first appearance; `?1` is the positional one. */
function sqliteText(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1');
}

function sqliteValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

interface SqliteConnection extends DirectStatements {
  close(): Promise<void>;
}

async function openSqliteConnection(storage: string, pragmas: string): Promise<SqliteConnection> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(storage, (err) => (err ? reject(err) : resolve(opened)));
  });
  await new Promise<void>((resolve, reject) => db.exec(pragmas, (err) => (err ? reject(err) : resolve())));
  const statements = new Map<string, Promise<sqlite3.Statement>>();
  // SQLite refuses to close while a statement runs or stays unfinalized: close waits for these first.
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = new Promise<sqlite3.Statement>((resolve, reject) => {
        const created: sqlite3.Statement = db.prepare(sqliteText(sql), (err) => (err ? reject(err) : resolve(created)));
      });
      statement.catch(() => statements.delete(sql));
      statements.set(sql, statement);
    }
    return statement;
  };
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    const settled = () => inFlight.delete(work);
    work.then(settled, settled);
    return work;
  };
  const using = <T>(sql: string, step: (statement: sqlite3.Statement, done: (err: Error | null, value?: T) => void) => void) => {
    if (closed) return Promise.reject(new Error('database is closed'));
    return track(
      prepared(sql).then(
        (statement) => new Promise<T>((resolve, reject) => step(statement, (err, value) => (err ? reject(err) : resolve(value as T)))),
      ),
    );
  };

  return {
    all<T>(sql: string, bind: unknown[]) {
      return using<T[]>(sql, (statement, done) => statement.all(bind.map(sqliteValue), (err, rows) => done(err, rows as T[])));
    },
    run(sql, bind) {
      return using<number>(sql, (statement, done) =>
        statement.run(bind.map(sqliteValue), function (this: sqlite3.RunResult, err: Error | null) {
          done(err, this?.changes);
        }),
      );
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
      for (const statement of await Promise.allSettled(statements.values())) {
        if (statement.status === 'fulfilled') await new Promise<void>((resolve) => statement.value.finalize(() => resolve()));
      }
      statements.clear();
      await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

/**
 * Two connections to one SQLite file: one runs statements that commit on their own, the other transactions,
 * one at a time (SQLite has one writer; `BEGIN IMMEDIATE` takes the write lock up front, so two writers
 * queue on the busy timeout instead of deadlocking).
 */
export async function openSqliteDirect(storage: string, pragmas: string): Promise<DirectDriver> {
  const [autocommit, transactional] = await Promise.all([openSqliteConnection(storage, pragmas), openSqliteConnection(storage, pragmas)]);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    all: (sql, bind) => autocommit.all(sql, bind),
    run: (sql, bind) => autocommit.run(sql, bind),
    transaction<T>(work: (statements: DirectStatements) => Promise<T>): Promise<T> {
      const turn = queue.then(async () => {
        await transactional.run('BEGIN IMMEDIATE', []);
        try {
          const result = await work(transactional);
          await transactional.run('COMMIT', []);
          return result;
        } catch (error) {
          await transactional.run('ROLLBACK', []).catch(() => undefined);
          throw error;
        }
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
    async close() {
      await queue;
      await Promise.all([autocommit.close(), transactional.close()]);
    },
  };
}

/** Named statements: pg prepares each name once per connection. */
function pgStatements(client: pg.Pool | pg.PoolClient, names: Map<string, string>): DirectStatements {
  const query = (sql: string, bind: unknown[]) => {
    let name = names.get(sql);
    if (!name) names.set(sql, (name = `gw${names.size}`));
    return client.query({ name, text: sql, values: bind.map((v) => (v === undefined ? null : v)) });
  };
  return {
    async all<T>(sql: string, bind: unknown[]) {
      return (await query(sql, bind)).rows as T[];
    },
    async run(sql, bind) {
      return (await query(sql, bind)).rowCount ?? 0;
    },
  };
}

/**
 * `relaxed`: a pool whose commits do not wait for the WAL flush (synchronous_commit=off), for writes
 * whose loss in a crash is harmless, such as rate-limit counters. The database stays consistent.
 */
export function openPostgresDirect(url: string, relaxed = false): DirectDriver {
  const pool = new pg.Pool({
    connectionString: url,
    max: relaxed ? 4 : 10,
    idleTimeoutMillis: 10_000,
    ...(relaxed ? { options: '-c synchronous_commit=off' } : {}),
  });
  // A pooled client that loses its server emits 'error'; the next query opens a fresh one.
  pool.on('error', () => undefined);
  const names = new Map<string, string>();
  return {
    ...pgStatements(pool, names),
    async transaction<T>(work: (statements: DirectStatements) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(pgStatements(client, names));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        // A client whose rollback failed may be mid-transaction: it is discarded, not pooled.
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
