import { createRequire } from 'node:module';
import type pg from 'pg';
import type sqlite3 from 'sqlite3';

/**
 * Each driver is loaded by the first connection of its dialect, so a process loads only the one it uses
 * (and a command that never reaches the database, neither).
 */
let sqliteDriver: Promise<typeof sqlite3> | undefined;
export const loadSqlite = () => (sqliteDriver ??= import('sqlite3').then((module) => module.default));

let pgDriver: typeof pg | undefined;
export const loadPg = async () => (pgDriver ??= requirePg());

/**
 * pg checks whether it runs in a Cloudflare Worker by constructing a `Response`; on Node 20 the first use of
 * that global loads Node's whole fetch implementation (undici, http2, tls), about 20 ms of CPU (a tenth of an
 * admin command on Postgres) for nothing pg uses. The global is hidden for the synchronous require alone, so
 * no other code can see it missing.
 */
function requirePg(): typeof pg {
  const response = Object.getOwnPropertyDescriptor(globalThis, 'Response');
  Object.defineProperty(globalThis, 'Response', { value: undefined, configurable: true, writable: true });
  let driver: typeof pg;
  try {
    driver = createRequire(import.meta.url)('pg') as typeof pg;
  } finally {
    if (response) Object.defineProperty(globalThis, 'Response', response);
  }
  // BIGINT columns hold epoch milliseconds and micro-dollars, both far inside Number's safe range.
  driver.types.setTypeParser(20, (value: string) => Number(value));
  return driver;
}

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

/** One statement with its binds. */
export interface Statement {
  sql: string;
  bind: unknown[];
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

/** How long a new connection keeps trying its pragmas while another process sets WAL mode on the same new file. */
const PRAGMA_RETRY_MS = 10_000;

/**
 * Runs the connection's pragmas. On a new file, `journal_mode=WAL` takes an exclusive lock that another
 * process's connection meets as SQLITE_BUSY at once (the busy timeout does not apply to it): it is tried again
 * after a short wait, for up to PRAGMA_RETRY_MS, as the busy timeout would have waited.
 */
async function tuneConnection(db: sqlite3.Database, pragmas: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      return await new Promise<void>((resolve, reject) => db.exec(pragmas, (err) => (err ? reject(err) : resolve())));
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() - started > PRAGMA_RETRY_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function openSqliteConnection(storage: string, pragmas: string, mode: number | undefined): Promise<SqliteConnection> {
  const driver = await loadSqlite();
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new driver.Database(storage, mode ?? driver.OPEN_READWRITE | driver.OPEN_CREATE | driver.OPEN_FULLMUTEX, (err) => (err ? reject(err) : resolve(opened)));
  });
  await tuneConnection(db, pragmas);
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
 * Runs a transaction's work on `statements`, keeping every statement inside the transaction: before the caller
 * commits or rolls back, each statement the work issued has ended, awaited or not (so none runs after COMMIT
 * or ROLLBACK, committing on its own), and a statement issued once the work has ended is refused.
 */
async function withinTransaction<T>(statements: DirectStatements, work: (statements: DirectStatements) => Promise<T>): Promise<T> {
  const issued = new Set<Promise<unknown>>();
  let ended = false;
  const scoped = <R>(start: () => Promise<R>): Promise<R> => {
    if (ended) return Promise.reject(new Error('statement issued after its transaction ended'));
    const statement = start();
    issued.add(statement);
    return statement;
  };
  try {
    return await work({ all: (sql, bind) => scoped(() => statements.all(sql, bind)), run: (sql, bind) => scoped(() => statements.run(sql, bind)) });
  } finally {
    ended = true;
    await Promise.allSettled(issued);
  }
}

/** Statements that write: grouped into one commit with the other writes of the same moment. */
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

/**
 * Rolls a transaction back. When that fails with the transaction still open (not merely "no transaction is
 * active", after SQLite already ended it), the connection can no longer be trusted: later writes would run
 * inside the stale transaction and never commit. The error returned then marks the connection broken.
 */
async function rollBack(connection: DirectStatements): Promise<Error | null> {
  try {
    await connection.run('ROLLBACK', []);
    return null;
  } catch (error) {
    return /no transaction is active/.test(String((error as Error).message)) ? null : (error as Error);
  }
}

/** What every later statement on a connection whose rollback failed is refused with. */
function brokenConnection(cause: Error): Error {
  return new Error(`the database connection is unusable after a failed rollback (${cause.message}); restart the gateway`);
}

/**
 * Write transactions on one connection, one at a time: `BEGIN IMMEDIATE`, the work, `COMMIT`, or a rollback
 * when the work or the commit fails. After a rollback that failed with the transaction still open, every later
 * transaction, and every write the connection is asked for, is refused (see rollBack).
 */
function serialTransactions(connection: DirectStatements) {
  let queue: Promise<unknown> = Promise.resolve();
  let broken: Error | null = null;
  return {
    /** Throws when a failed rollback left the connection unusable. */
    checkUsable(): void {
      if (broken) throw broken;
    },
    run<T>(work: () => Promise<T>): Promise<T> {
      const turn = queue.then(async () => {
        if (broken) throw broken;
        await connection.run('BEGIN IMMEDIATE', []);
        try {
          const result = await work();
          await connection.run('COMMIT', []);
          return result;
        } catch (error) {
          const stuck = await rollBack(connection);
          if (stuck) broken = brokenConnection(stuck);
          throw error;
        }
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
    /** Resolves once the transactions begun so far have ended. */
    idle: () => queue,
  };
}

interface QueuedWrite {
  step(): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A write the database refused (a constraint) undoes only itself; any other failure may have ended the transaction. */
function refusedAlone(error: unknown): boolean {
  return String((error as { code?: string })?.code).startsWith('SQLITE_CONSTRAINT');
}

/**
 * Group commit: a write issued while nothing commits goes at once, alone; the writes issued while a commit
 * is under way go to the database together as the next transaction, each caller awaiting the commit that
 * holds its row, so concurrent runs cost one commit per group instead of one per statement. A write the
 * database refuses fails alone (SQLite undoes a refused statement, not the transaction); a failed commit
 * fails every write of its group. Writes that must stand or fall together are one statement (a trigger's
 * writes are one: sqlite-call-views.ts), so none needs a savepoint of its own.
 */
export function groupCommitter(connection: DirectStatements) {
  const transactions = serialTransactions(connection);
  let queued: QueuedWrite[] = [];
  let committing: Promise<void> | null = null;

  async function commit(group: QueuedWrite[]): Promise<void> {
    try {
      transactions.checkUsable();
      if (group.length === 1) {
        await group[0].step().then(group[0].resolve, group[0].reject);
        return;
      }
      const results = await transactions.run(async () => {
        const settled = await Promise.allSettled(group.map((write) => write.step()));
        const failed = settled.find((result) => result.status === 'rejected' && !refusedAlone(result.reason));
        if (failed) throw (failed as PromiseRejectedResult).reason;
        return settled;
      });
      results.forEach((result, i) => (result.status === 'fulfilled' ? group[i].resolve(result.value) : group[i].reject(result.reason)));
    } catch (error) {
      group.forEach((write) => write.reject(error));
    }
  }

  async function drain(): Promise<void> {
    while (queued.length) {
      const group = queued;
      queued = [];
      await commit(group);
    }
    committing = null;
  }

  return {
    write: <T>(step: () => Promise<T>): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        queued.push({ step, resolve: resolve as (value: unknown) => void, reject });
        committing ??= drain();
      }),
    /** Resolves once every queued write is committed. */
    idle: () => committing ?? Promise.resolve(),
  };
}

/**
 * Three connections to one SQLite file: one for reads, one for writes that commit on their own (grouped,
 * above), one for transactions, one at a time. SQLite has one writer; `BEGIN IMMEDIATE` takes the write lock
 * up front, so two writers queue on the busy timeout instead of deadlocking. The writing connections never
 * hold a read open when they begin (a connection upgrading a read to a write while another writes gets
 * SQLITE_BUSY at once, without the wait), and no read sees a group's rows before they are committed.
 */
export async function openSqliteDirect(storage: string, pragmas: string, mode?: number): Promise<DirectDriver> {
  // The first connection alone: on a new file its `journal_mode=WAL` takes an exclusive lock, which SQLite may
  // refuse at once (SQLITE_BUSY, no busy wait) to a connection opened beside it; once set, WAL mode stays.
  const reads = await openSqliteConnection(storage, pragmas, mode);
  const [writing, transactional] = await Promise.all([1, 2].map(() => openSqliteConnection(storage, pragmas, mode)));
  const writes = groupCommitter(writing);
  const transactions = serialTransactions(transactional);
  return {
    all: (sql, bind) => (WRITE.test(sql) ? writes.write(() => writing.all(sql, bind)) : reads.all(sql, bind)),
    run: (sql, bind) => (WRITE.test(sql) ? writes.write(() => writing.run(sql, bind)) : reads.run(sql, bind)),
    transaction: (work) => transactions.run(() => withinTransaction(transactional, work)),
    async close() {
      await Promise.all([transactions.idle(), writes.idle()]);
      // SQLite checkpoints the WAL into the database when its last connection closes; another process's
      // connection (a `calls tail` left open) would keep it from ever happening, so the WAL is checkpointed
      // and emptied here. Best effort: busy readers may refuse it, and the next writer checkpoints then.
      await writing.run('PRAGMA wal_checkpoint(TRUNCATE)', []).catch(() => undefined);
      await Promise.all([reads.close(), writing.close(), transactional.close()]);
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
 * The gateway's Postgres pools, each on connections of its own, since pg's pool serves whoever asked first and
 * a full pool makes every later statement queue behind the ones ahead of it.
 */
export const POSTGRES_POOLS = {
  /** The work's statements and transactions, whose commits wait for the WAL flush. */
  shared: { max: 10 },
  /** Writes whose loss in a crash is harmless, such as rate-limit counters: commits do not wait for the WAL flush. */
  relaxed: { max: 4, options: '-c synchronous_commit=off' },
  /**
   * The short reads every request or readiness check waits on before any work: credential lookups, grouped
   * so at most one of each kind runs at once (grouped-lookups.ts), and `SELECT 1`. Three connections: one per
   * kind of lookup and one for the ping, so none waits for a connection; no tenant's writes can take them.
   */
  lookups: { max: 3 },
} satisfies Record<string, { max: number; options?: string }>;

export type PostgresPool = keyof typeof POSTGRES_POOLS;

/** One of POSTGRES_POOLS, its statements prepared once per connection. */
export async function openPostgresDirect(url: string, kind: PostgresPool = 'shared'): Promise<DirectDriver> {
  const { Pool } = await loadPg();
  const pool = new Pool({ connectionString: url, idleTimeoutMillis: 10_000, ...POSTGRES_POOLS[kind] });
  // A pooled client that loses its server emits 'error'; the next query opens a fresh one.
  pool.on('error', () => undefined);
  const names = new Map<string, string>();
  const driver: DirectDriver = {
    ...pgStatements(pool, names),
    async transaction<T>(work: (statements: DirectStatements) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      // A checked-out client has no pool listener: a connection lost mid-transaction must not be an uncaught error.
      const lost = (error: Error) => (broken = error);
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        const result = await withinTransaction(pgStatements(client, names), work);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        client.off('error', lost);
        // A client whose rollback failed, or whose connection was lost, is discarded, not pooled.
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
  return driver;
}
