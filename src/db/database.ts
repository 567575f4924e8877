import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Sequelize, Transaction as SequelizeTransaction } from 'sequelize';
import { SQLITE_CALL_VIEWS } from './repos/sqlite-call-views.js';
import { loadPg, loadSqlite, openPostgresDirect, openSqliteDirect, type DirectDriver, type DirectStatements } from './direct.js';

export type { Statement } from './direct.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * What runs statements: the database itself, where each statement commits on its own, or a transaction.
 * `$1`-style binds work on both dialects. Repositories take an Executor when a statement may run either way.
 */
export interface Executor {
  readonly dialect: Dialect;
  /** Rows of a query (a SELECT, or a write with RETURNING). */
  select<T = Record<string, unknown>>(sql: string, bind?: unknown[]): Promise<T[]>;
  /** A write; the affected row count. */
  execute(sql: string, bind?: unknown[]): Promise<number>;
}

/** One open write transaction: what statements that must commit together are given (never optional). */
export interface Transaction extends Executor {
  readonly transaction: true;
}

export interface Database extends Executor {
  url: string;
  /**
   * Sequelize describes the schema and migrates it (src/db/migrations); statements go through the executor.
   * It is loaded and connected on first use, so work that only runs statements never pays for it.
   */
  sequelize(): Promise<Sequelize>;
  /**
   * A write answering rows, for data whose loss in a Postgres crash is harmless (rate-limit counters)
   * or made durable by a later ordinary commit (a pending call, settled before the run answers: flushing
   * the settlement's WAL flushes everything before it). On Postgres it commits without waiting for the
   * WAL flush, which takes a disk sync off the request.
   */
  selectRelaxed<T = Record<string, unknown>>(sql: string, bind?: unknown[]): Promise<T[]>;
  /** `execute` with the same relaxed commit as selectRelaxed. */
  executeRelaxed(sql: string, bind?: unknown[]): Promise<number>;
  /**
   * For the short reads every request or readiness check waits on before any work (a credential's lookup):
   * on connections of their own, so no queue of other statements delays them (on Postgres a pool of its
   * own; SQLite's reads already have a connection beside the writes).
   */
  lookups: Pick<Executor, 'dialect' | 'select'>;
  /** Runs `work` in one write transaction, committed when it resolves and rolled back when it throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Whether the database answers, on the lookups' connections: it says nothing about how busy the others are. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

// busy_timeout first: a new connection's own journal_mode statement may meet another writer's lock.
// Then what every connection's statements expect of it besides the file's tables.
const sqlitePragmas = `PRAGMA busy_timeout=10000; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; ${SQLITE_CALL_VIEWS}`;

interface SqliteHandle {
  exec(sql: string, callback: (err: Error | null) => void): void;
}

/** Sequelize's SQLite driver opens a connection per transaction and skips its connect hooks, so every new connection is tuned here. */
function tuneSqliteConnections(sequelize: Sequelize): void {
  const manager = sequelize.connectionManager as unknown as { getConnection(options?: object): Promise<SqliteHandle> };
  const tuned = new WeakSet<SqliteHandle>();
  const original = manager.getConnection.bind(manager);
  manager.getConnection = async (options?: object) => {
    const connection = await original(options);
    if (!tuned.has(connection)) {
      tuned.add(connection);
      await new Promise<void>((resolve, reject) => connection.exec(sqlitePragmas, (err) => (err ? reject(err) : resolve())));
    }
    return connection;
  };
}

export function sqliteStoragePath(url: string): string {
  const rest = url.slice('sqlite:'.length);
  if (rest === ':memory:' || rest === '//:memory:') return ':memory:';
  return rest.startsWith('//') ? rest.slice(2) : path.resolve(rest);
}

/** Where a database is, for messages: never its password. */
export function describeDatabase(url: string): string {
  if (url.startsWith('sqlite:')) return `SQLite database ${sqliteStoragePath(url)}`;
  const parsed = new URL(url);
  return `Postgres database "${decodeURIComponent(parsed.pathname.slice(1))}" on ${parsed.hostname}:${parsed.port || 5432}`;
}

/**
 * The gateway's data directory holds its secrets: owner-only (0700), whether it is new or left from an
 * earlier start. A shared directory (sticky bit, like /tmp) is never narrowed.
 */
export function ensurePrivateDirectory(dir: string): void {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return;
  }
  const { mode } = statSync(dir);
  if (!(mode & 0o1000) && (mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

const SQLITE_COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * The SQLite file is created empty, 0600, before SQLite opens it, since SQLite gives its -wal, -shm and
 * -journal files the database file's mode; files left from an earlier start are narrowed to 0600 too.
 */
function prepareSqliteFiles(storage: string): void {
  const dir = path.dirname(storage);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  closeSync(openSync(storage, 'a', 0o600));
  for (const suffix of SQLITE_COMPANIONS) {
    const file = storage + suffix;
    if (existsSync(file) && (statSync(file).mode & 0o777) !== 0o600) chmodSync(file, 0o600);
  }
}

export interface OpenOptions {
  /**
   * Whether a SQLite file (and its directory) may be created. Only the commands that set a database up
   * (`migrate`, `serve`) create one; every other opens an existing file or fails.
   */
  create?: boolean;
}

async function createSequelize(url: string, dialect: Dialect, storage: string | undefined): Promise<Sequelize> {
  const { Sequelize, Transaction } = await import('sequelize');
  if (dialect === 'postgres') {
    await loadPg();
    return new Sequelize(url, { dialect: 'postgres', logging: false, pool: { max: 5, min: 0, idle: 10000 } });
  }
  const sequelize = new Sequelize({ dialect: 'sqlite', storage, logging: false, transactionType: Transaction.TYPES.IMMEDIATE });
  tuneSqliteConnections(sequelize);
  return sequelize;
}

export async function openDatabase(url: string, { create = true }: OpenOptions = {}): Promise<Database> {
  const dialect: Dialect = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  const storage = dialect === 'sqlite' ? sqliteStoragePath(url) : undefined;
  // An in-memory SQLite database exists once per connection, so it keeps to Sequelize's single one.
  const inMemory = storage === ':memory:';
  if (storage && !inMemory) {
    if (!create && !existsSync(storage)) throw new DatabaseUnavailable(`no SQLite database at ${storage}`, 'missing');
    try {
      if (create) prepareSqliteFiles(storage);
    } catch (err) {
      throw new DatabaseUnavailable(`cannot create or open the SQLite database file ${storage} (${(err as NodeJS.ErrnoException).code})`);
    }
  }
  let connected: Promise<Sequelize> | undefined;
  const sequelize = () => (connected ??= createSequelize(url, dialect, storage));
  let direct: DirectDriver | undefined;
  let relaxed: DirectDriver | undefined;
  let lookups: DirectDriver | undefined;

  // Where statements run is decided here, once: on the prepared driver statements, except in memory.
  const viaSequelize = (transaction?: SequelizeTransaction): Executor => ({
    dialect,
    async select<T>(sql: string, bind: unknown[] = []) {
      const { QueryTypes } = await import('sequelize');
      // Sequelize's SQLite driver runs text starting with INSERT or UPDATE through run(), which drops
      // RETURNING rows; a leading comment keeps such statements on all(), which returns them.
      const text = dialect === 'sqlite' ? `/* rows */ ${sql}` : sql;
      return (await sequelize()).query(text, { bind, type: QueryTypes.SELECT, transaction }) as Promise<T[]>;
    },
    async execute(sql: string, bind: unknown[] = []) {
      const { QueryTypes } = await import('sequelize');
      // The BULKDELETE query type is the one whose answer is the affected row count on both drivers,
      // whatever the statement text; raw queries lose it for INSERT on Postgres and always on SQLite.
      return Number(await (await sequelize()).query(sql, { bind, transaction, type: QueryTypes.BULKDELETE }));
    },
  });
  const viaDriver = (statements: DirectStatements): Executor => ({
    dialect,
    select: <T>(sql: string, bind: unknown[] = []) => statements.all<T>(sql, bind),
    execute: (sql: string, bind: unknown[] = []) => statements.run(sql, bind),
  });
  const inTransaction = (executor: Executor): Transaction => ({ ...executor, transaction: true });
  let autocommit = viaSequelize();

  const database: Database = {
    url,
    sequelize,
    dialect,
    select: (sql, bind) => autocommit.select(sql, bind),
    execute: (sql, bind) => autocommit.execute(sql, bind),
    selectRelaxed: (sql, bind = []) => (relaxed ? relaxed.all(sql, bind) : database.select(sql, bind)),
    executeRelaxed: (sql, bind = []) => (relaxed ? relaxed.run(sql, bind) : database.execute(sql, bind)),
    lookups: { dialect, select: (sql, bind = []) => (lookups ? lookups.all(sql, bind) : database.select(sql, bind)) },
    async transaction(work) {
      if (direct) return direct.transaction((statements) => work(inTransaction(viaDriver(statements))));
      return (await sequelize()).transaction((t) => work(inTransaction(viaSequelize(t))));
    },
    async ping() {
      await database.lookups.select('SELECT 1');
    },
    async close() {
      await Promise.all([connected?.then((opened) => opened.close()), direct?.close(), relaxed?.close(), lookups?.close()]);
    },
  };
  try {
    if (dialect === 'postgres') {
      direct = await openPostgresDirect(url);
      relaxed = await openPostgresDirect(url, 'relaxed');
      lookups = await openPostgresDirect(url, 'lookups');
    } else if (!inMemory) {
      const driver = await loadSqlite();
      direct = await openSqliteDirect(storage!, sqlitePragmas, create ? undefined : driver.OPEN_READWRITE | driver.OPEN_FULLMUTEX);
    }
    if (direct) autocommit = viaDriver(direct);
    await database.ping();
  } catch (err) {
    await database.close().catch(() => undefined);
    throw new DatabaseUnavailable(describeConnectionError(url, err));
  }
  return database;
}

/** The database cannot be reached or opened; `missing` when it does not exist (a SQLite file, a Postgres database). */
export class DatabaseUnavailable extends Error {
  constructor(
    message: string,
    readonly reason?: 'missing',
  ) {
    super(message);
  }
}

/** What went wrong opening the database, said so the operator knows what to do; never the password. */
function describeConnectionError(url: string, err: unknown): string {
  const original = (err as { original?: { code?: string } }).original;
  const code = original?.code ?? (err as { code?: string }).code;
  if (url.startsWith('postgres')) {
    const target = new URL(url);
    const host = target.hostname || 'localhost';
    const port = target.port || '5432';
    const user = decodeURIComponent(target.username) || 'postgres';
    const name = decodeURIComponent(target.pathname.slice(1)) || user;
    if (code === '3D000') {
      return `database "${name}" does not exist on the PostgreSQL server at ${host}:${port}; create it with: createdb -h ${host} -p ${port} -U ${user} ${name}`;
    }
    if (code === 'ECONNREFUSED') return `database unreachable: no PostgreSQL server answers at ${host}:${port}; start it, or fix database.url`;
    if (code === '28P01' || code === '28000') return `PostgreSQL at ${host}:${port} refused user "${user}" (${code}); fix the user or password in database.url`;
  } else if (code === 'SQLITE_CANTOPEN') {
    return `cannot open the SQLite database file ${sqliteStoragePath(url)}; check that its directory is writable`;
  }
  return `database unreachable${code ? ` (${code})` : ''}`;
}
