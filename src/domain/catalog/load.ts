import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { packageRoot } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import type { Catalog, Provider, Task } from './types.js';

export class CatalogError extends Error {}

interface CatalogFile {
  providers?: Provider[];
  tasks?: Array<Omit<Task, 'price_micros'>>;
  synonyms?: string[][];
}

export const builtinCatalogDir = path.join(packageRoot, 'config', 'catalog');

export function readCatalogFile(file: string): CatalogFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new CatalogError(`catalog file ${file} cannot be read`);
  }
  try {
    return ((/\.ya?ml$/i.test(file) ? YAML.parse(text) : JSON.parse(text)) ?? {}) as CatalogFile;
  } catch (err) {
    throw new CatalogError(`catalog file ${file} is not valid: ${(err as Error).message.split('\n')[0]}`);
  }
}

function builtinFiles(): string[] {
  return readdirSync(builtinCatalogDir)
    .filter((name) => /\.(json|ya?ml)$/i.test(name))
    .sort()
    .map((name) => path.join(builtinCatalogDir, name));
}

/** Sorted keys at every level, so the same content always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The built-in catalog, then each of `catalog.files`; a later file may override a provider's base_url. */
export function loadCatalog(config: Config): Catalog {
  const providers = new Map<string, Provider>();
  const tasks = new Map<string, Task>();
  const synonyms: string[][] = [];
  for (const file of [...builtinFiles(), ...config.catalog.files]) {
    const content = readCatalogFile(file);
    for (const provider of content.providers ?? []) providers.set(provider.slug, { ...providers.get(provider.slug), ...provider });
    for (const task of content.tasks ?? []) tasks.set(task.id, { ...task, price_micros: Math.round(task.price_usd * 1_000_000) });
    synonyms.push(...(content.synonyms ?? []));
  }
  for (const [slug, override] of Object.entries(config.providers)) {
    const provider = providers.get(slug);
    if (provider && override.base_url) providers.set(slug, { ...provider, base_url: override.base_url });
  }
  const version = createHash('sha256')
    .update(canonical({ providers: [...providers.values()], tasks: [...tasks.values()], synonyms }))
    .digest('hex')
    .slice(0, 12);
  const byCapability = new Map<string, Task[]>();
  for (const task of tasks.values()) byCapability.set(task.capability, [...(byCapability.get(task.capability) ?? []), task]);
  return {
    version,
    providers,
    tasks,
    synonyms,
    tasksForCapability: (capability) => byCapability.get(capability) ?? [],
  };
}
