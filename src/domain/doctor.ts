import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { describeDatabase, sqliteStoragePath } from '../db/database.js';
import { DatabaseInspectionFailed, inspectSchema } from '../db/inspect.js';
import { buildCatalog, builtinCatalogFiles, CatalogError } from './catalog/load.js';

/** One verdict of `gateway doctor`: what was checked, whether it passed, and what to do when it did not. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

const pass = (name: string, detail: string): DoctorCheck => ({ name, ok: true, detail });
const fail = (name: string, detail: string): DoctorCheck => ({ name, ok: false, detail });

const modeOf = (file: string) => statSync(file).mode & 0o777;
const octal = (mode: number) => `0${mode.toString(8)}`;

function unreachable(url: string, code: string | undefined): string {
  if (url.startsWith('sqlite:')) return `cannot read ${describeDatabase(url)}${code ? ` (${code})` : ''}: check the file and its permissions`;
  const parsed = new URL(url);
  const name = parsed.pathname.slice(1);
  const port = parsed.port || '5432';
  if (code === '3D000') return `Postgres database "${name}" does not exist: create it (createdb -h ${parsed.hostname} -p ${port} ${name}) or fix database.url`;
  if (code === 'ECONNREFUSED') return `nothing accepts connections on ${parsed.hostname}:${port}: start PostgreSQL there or fix database.url`;
  if (code === '28P01' || code === '28000') return `Postgres refused the user or password of database.url on ${parsed.hostname}:${port}`;
  return `cannot reach ${describeDatabase(url)}${code ? ` (${code})` : ''}: check database.url and that PostgreSQL is running`;
}

/** Reachable and fully migrated; an absent SQLite file fails without being created. */
async function checkDatabase(config: Config): Promise<DoctorCheck> {
  const url = config.database.url;
  if (url.startsWith('sqlite:')) {
    const storage = sqliteStoragePath(url);
    if (storage === ':memory:') return pass('database', 'in-memory SQLite: nothing is kept between starts');
    if (!existsSync(storage)) return fail('database', `no SQLite database at ${storage}: run gateway migrate (gateway serve also creates it)`);
  }
  try {
    const { applied, pending } = await inspectSchema(url);
    if (pending.length) return fail('database', `${pending.length} pending migration${pending.length > 1 ? 's' : ''} (${pending.join(', ')}): run gateway migrate`);
    return pass('database', `${describeDatabase(url)} reachable, ${applied.length} migrations applied, none pending`);
  } catch (err) {
    if (err instanceof DatabaseInspectionFailed) return fail('database', unreachable(url, err.code));
    throw err;
  }
}

function checkSecretKey(config: Config): DoctorCheck {
  if (config.secret_key) return pass('secret_key', 'set by secret_key (GATEWAY_SECRET_KEY)');
  const file = path.join(config.data_dir, 'secret.key');
  if (!existsSync(file)) return fail('secret_key', `no secret key: set GATEWAY_SECRET_KEY, or start gateway serve once to generate ${file}`);
  const mode = modeOf(file);
  if (mode & 0o077) return fail('secret_key', `${file} has mode ${octal(mode)}, readable by others: chmod 600 ${file}`);
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch {
    return fail('secret_key', `${file} cannot be read by this user: run doctor as the user that runs gateway serve`);
  }
  if (!secret) return fail('secret_key', `${file} is empty: restore it from a backup (stored credentials are encrypted with it)`);
  return pass('secret_key', `${file} (mode ${octal(mode)})`);
}

function checkCatalog(config: Config): DoctorCheck {
  try {
    const { catalog } = buildCatalog([...builtinCatalogFiles(), ...config.catalog.files], config.providers);
    return pass('catalog', `${catalog.providers.size} providers, ${catalog.tasks.size} tasks (catalog version ${catalog.version})`);
  } catch (err) {
    if (!(err instanceof CatalogError)) throw err;
    return fail('catalog', `${err.problems.join('; ')}: fix catalog.files (gateway catalog validate FILE checks one file)`);
  }
}

/** Hosted links, problem types and the OAuth callback are built on it: a bare http(s) origin and path, nothing else. */
function checkPublicUrl(config: Config): DoctorCheck {
  const value = config.server.public_url;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('public_url', `${value} is not a URL: set server.public_url (GATEWAY_PUBLIC_URL) to the address callers use, e.g. https://gateway.example.com`);
  }
  const problems = (
    [
      [!['http:', 'https:'].includes(url.protocol), 'is not http or https'],
      [!url.hostname, 'has no host'],
      [url.username !== '' || url.password !== '', 'carries credentials'],
      [url.search !== '', 'has a query string'],
      [url.hash !== '', 'has a fragment'],
    ] as const
  )
    .filter(([found]) => found)
    .map(([, problem]) => problem);
  if (problems.length) return fail('public_url', `${url.protocol}//${url.host}${url.pathname} ${problems.join(', ')}: set server.public_url to a plain http(s) address`);
  return pass('public_url', value);
}

/** The directory 0700; the SQLite files and the first-run key file 0600 (no group or other access). */
function checkDataDir(config: Config): DoctorCheck {
  const dir = config.data_dir;
  if (!existsSync(dir)) return fail('data_dir', `${dir} does not exist: gateway serve creates it (mode 0700)`);
  if (!statSync(dir).isDirectory()) return fail('data_dir', `${dir} is not a directory`);
  const dirMode = modeOf(dir);
  if (dirMode & 0o077) return fail('data_dir', `${dir} has mode ${octal(dirMode)}: chmod 700 ${dir}`);
  const files = [path.join(dir, 'initial-owner-key')];
  const storage = config.database.url.startsWith('sqlite:') ? sqliteStoragePath(config.database.url) : ':memory:';
  if (storage !== ':memory:') files.push(...['', '-wal', '-shm', '-journal'].map((suffix) => storage + suffix));
  const open = files.filter((file) => existsSync(file) && modeOf(file) & 0o077);
  if (open.length) {
    return fail('data_dir', `${open.map((file) => `${file} has mode ${octal(modeOf(file))}`).join(', ')}: chmod 600 ${open.join(' ')}`);
  }
  return pass('data_dir', `${dir} (mode ${octal(dirMode)}), its files 0600`);
}

/** The checks after the configuration's own, in the order they are reported. */
const checksAfterConfig: Record<string, (config: Config) => DoctorCheck | Promise<DoctorCheck>> = {
  database: checkDatabase,
  secret_key: checkSecretKey,
  catalog: checkCatalog,
  public_url: checkPublicUrl,
  data_dir: checkDataDir,
};

/** Which checks rest on which keys: a check whose key is invalid cannot be judged. */
const checksOfKey: Array<[RegExp, string[]]> = [
  [/^database\b/, ['database']],
  [/^secret_key$/, ['secret_key']],
  [/^(catalog|providers)\b/, ['catalog']],
  [/^server\.(public_url|host|port)$/, ['public_url']],
  [/^data_dir$/, ['data_dir', 'secret_key', 'database']],
];

/** At most this many invalid keys are set aside to judge the rest; beyond it the configuration is hopeless. */
const MAX_INVALID_KEYS = 10;

type ConfigLoader = (overrides?: Record<string, unknown>) => Config;

/** An override that puts `keys` back to its default (undefined is absent to the schema). */
function withDefault(overrides: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const [first, ...rest] = keys;
  if (!rest.length) return { ...overrides, [first]: undefined };
  const inner = overrides[first];
  return { ...overrides, [first]: withDefault(typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {}, rest) };
}

/**
 * The configuration, and the keys found invalid: each is set back to its default and the rest loaded
 * again, so one bad value fails the config check (and the checks resting on that key) but not the others.
 */
function loadLeniently(load: ConfigLoader): { config?: Config; problems: string[]; invalid: string[] } {
  const problems: string[] = [];
  const invalid: string[] = [];
  let overrides: Record<string, unknown> = {};
  while (invalid.length <= MAX_INVALID_KEYS) {
    try {
      return { config: load(overrides), problems, invalid };
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message);
      if (!err.key) break;
      invalid.push(err.key.join('.'));
      overrides = withDefault(overrides, err.key);
    }
  }
  return { problems, invalid };
}

/**
 * Every check of `gateway doctor`, in order. Read-only: nothing is created, migrated or chmod-ed (a
 * missing data directory or SQLite file is a failing check, not something to make).
 */
export async function runDoctor(load: ConfigLoader): Promise<DoctorCheck[]> {
  const { config, problems, invalid } = loadLeniently(load);
  const configCheck = problems.length
    ? fail('config', `${problems.join('; ')}: fix it in the config file or its GATEWAY_* variable`)
    : pass('config', `valid (database ${config!.database.url.startsWith('sqlite:') ? 'SQLite' : 'Postgres'}, data directory ${config!.data_dir})`);
  if (!config) return [configCheck, ...Object.keys(checksAfterConfig).map((name) => fail(name, 'not checked: the configuration cannot be read'))];
  const unjudged = new Map<string, string>();
  for (const key of invalid) {
    for (const [pattern, names] of checksOfKey) if (pattern.test(key)) for (const name of names) unjudged.set(name, `not checked: ${key} is invalid`);
  }
  const results = [configCheck];
  for (const [name, check] of Object.entries(checksAfterConfig)) results.push(unjudged.has(name) ? fail(name, unjudged.get(name)!) : await check(config));
  return results;
}
