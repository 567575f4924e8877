import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';
import { ConfigError } from './errors.js';
import { packageRoot } from './package-root.js';
import { configSchema, type Config } from './schema.js';

export { ConfigError } from './errors.js';
export { packageRoot } from './package-root.js';

const shortEnvForms: Record<string, string[]> = {
  GATEWAY_DATABASE_URL: ['database', 'url'],
  GATEWAY_PORT: ['server', 'port'],
  GATEWAY_HOST: ['server', 'host'],
  GATEWAY_PUBLIC_URL: ['server', 'public_url'],
  GATEWAY_SECRET_KEY: ['secret_key'],
  GATEWAY_CATALOG: ['catalog', 'files'],
};

type Tree = Record<string, unknown>;

function isTree(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepMerge(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    out[key] = isTree(value) && isTree(out[key]) ? deepMerge(out[key] as Tree, value) : value;
  }
  return out;
}

function setPath(tree: Tree, keys: string[], value: unknown): void {
  let node = tree;
  for (const key of keys.slice(0, -1)) {
    if (!isTree(node[key])) node[key] = {};
    node = node[key] as Tree;
  }
  node[keys[keys.length - 1]] = value;
}

/** The YAML parser loads only for a YAML config file (synchronously: configs are read before anything else). */
function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)('js-yaml') as typeof JsYaml).load(text, { maxAliases: 100 });
}

export function readConfigFile(file: string): Tree {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(`config file ${file} cannot be read`);
  }
  let parsed: unknown;
  try {
    parsed = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (parsed == null) return {};
  if (!isTree(parsed)) throw new ConfigError(`config file ${file} must hold an object`);
  return parsed;
}

/**
 * Environment overrides: the short forms (README's configuration table), then GATEWAY_A__B for key a.b.
 * Variables that name no known key are ignored, so unrelated GATEWAY_* variables do not stop the server.
 */
function environmentOverrides(env: NodeJS.ProcessEnv, known: Tree): { tree: Tree; variables: Map<string, string> } {
  const out: Tree = {};
  /** Which variable set each key (`server.port` -> `GATEWAY_PORT`), to name it when its value is refused. */
  const variables = new Map<string, string>();
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith('GATEWAY_') || raw === undefined) continue;
    const keys = shortEnvForms[name] ?? name.slice('GATEWAY_'.length).toLowerCase().split('__');
    // Provider slugs use dashes, which environment variable names cannot: GATEWAY_PROVIDERS__OPEN_METEO__BASE_URL.
    if (keys[0] === 'providers' && keys.length === 3) keys[1] = keys[1].replace(/_/g, '-');
    if (!shortEnvForms[name] && !knownPath(known, keys)) continue;
    const value = keys.join('.') === 'catalog.files' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : raw;
    setPath(out, keys, value);
    variables.set(keys.join('.'), name);
  }
  return { tree: out, variables };
}

function getPath(tree: Tree, keys: string[]): unknown {
  let node: unknown = tree;
  for (const key of keys) {
    if (!isTree(node)) return undefined;
    node = node[key];
  }
  return node;
}

function knownPath(tree: Tree, keys: string[]): boolean {
  if (keys[0] === 'providers' && keys.length === 3) return true;
  if (keys[0] === 'secret_key' && keys.length === 1) return true;
  let node: unknown = tree;
  for (const key of keys) {
    if (!isTree(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

export interface LoadOptions {
  file?: string;
  env?: NodeJS.ProcessEnv;
  overrides?: Tree;
}

export function loadConfig(options: LoadOptions = {}): Config {
  const defaults = readConfigFile(path.join(packageRoot, 'config', 'default.json'));
  let merged = defaults;
  if (options.file) merged = deepMerge(merged, readConfigFile(options.file));
  const fromEnvironment = environmentOverrides(options.env ?? process.env, defaults);
  merged = deepMerge(merged, fromEnvironment.tree);
  if (options.overrides) merged = deepMerge(merged, options.overrides);

  const { error, value } = configSchema.validate(merged, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const key = detail.path.join('.');
    // Named when the refused value is the variable's (a command-line flag given over it is not).
    const overridden = options.overrides && getPath(options.overrides, detail.path.map(String)) !== undefined;
    const variable = overridden ? undefined : fromEnvironment.variables.get(key);
    const source = variable ? ` (set by ${variable})` : '';
    throw new ConfigError(`invalid config: ${key}${source}: ${detail.message.replace(/^"[^"]*" /, '')}`, detail.path.map(String));
  }
  return resolveDerived(value);
}

function resolveDerived(config: Config): Config {
  const dataDir = path.resolve(config.data_dir);
  const databaseUrl = config.database.url || `sqlite:${path.join(dataDir, 'gateway.db')}`;
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? 'localhost' : config.server.host;
  const publicUrl = (config.server.public_url || `http://${host}:${config.server.port}`).replace(/\/+$/, '');
  return {
    ...config,
    data_dir: dataDir,
    database: { url: databaseUrl },
    server: { ...config.server, public_url: publicUrl },
  };
}
