import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type Joi from 'joi';
import YAML from 'yaml';
import { packageRoot } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { builtinHandlers } from '../../providers/builtin/index.js';
import { placeholdersOf } from '../../providers/templates.js';
import { attachValidator, compileInputSchema, outputSchemaProblems } from './input.js';
import { fileSchema, providerOverrideSchema, providerSchema, taskSchema } from './schema.js';
import type { Catalog, JsonSchema, JsonTemplate, Provider, Task } from './types.js';

/**
 * A catalog that does not load: every problem is one line naming the file and the path of the bad field,
 * e.g. `catalog/x.yaml: tasks[3].price_usd: must be greater than or equal to 0`.
 */
export class CatalogError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `${problems[0]} (and ${problems.length - 1} more ${problems.length === 2 ? 'problem' : 'problems'}; \`gateway catalog validate FILE\` lists all)`);
  }
}

export const builtinCatalogDir = path.join(packageRoot, 'config', 'catalog');

/** The provider of in-process utility tasks. */
export const BUILTIN_PROVIDER = 'builtin';

export function builtinCatalogFiles(): string[] {
  return readdirSync(builtinCatalogDir)
    .filter((name) => /\.(json|ya?ml)$/i.test(name))
    .sort()
    .map((name) => path.join(builtinCatalogDir, name));
}

/** Built-in files are named from the package root, a self-hoster's files as they were given. */
function labelOf(file: string): string {
  return file.startsWith(builtinCatalogDir + path.sep) ? path.relative(packageRoot, file) : file;
}

type Entry = Record<string, unknown>;

/** Parsing YAML is the slowest part of a load; a process that loads the same files again (tests, reloads) parses once. */
const parsedFiles = new Map<string, unknown>();

const validateOptions: Joi.ValidationOptions = {
  abortEarly: false,
  convert: false,
  errors: { wrap: { label: false } },
  messages: { 'string.pattern.name': '{{#label}} must be {{#name}}' },
};

interface Declared<T> {
  value: T;
  /** `file: tasks[3]`, the prefix of every problem about this entry. */
  where: string;
}

/** Merges catalog files in order, collecting every problem rather than stopping at the first. */
class CatalogBuilder {
  readonly problems: string[] = [];
  readonly providers = new Map<string, Declared<Provider>>();
  readonly tasks = new Map<string, Declared<Task>>();
  readonly synonyms: string[][] = [];
  readonly counts = new Map<string, { providers: number; tasks: number }>();

  private problem(where: string, message: string): void {
    this.problems.push(`${where}: ${message}`);
  }

  /** joi's details as `file: entry.field: message` lines; the value on success. */
  private validate<T>(schema: Joi.Schema, value: unknown, file: string, entry = ''): T | undefined {
    const { error, value: valid } = schema.validate(value, validateOptions);
    if (!error) return valid as T;
    for (const detail of error.details) {
      const field = detail.path.reduce<string>((name, step) => (typeof step === 'number' ? `${name}[${step}]` : name ? `${name}.${step}` : String(step)), '');
      const label = `${detail.context?.label ?? ''} `;
      const at = [entry, field].filter(Boolean).join('.');
      this.problem(at ? `${file}: ${at}` : file, detail.message.startsWith(label) ? detail.message.slice(label.length) : detail.message);
    }
    return undefined;
  }

  addFile(file: string): void {
    const label = labelOf(file);
    const parsed = this.read(file, label);
    if (parsed === undefined) return;
    const content = this.validate<{ providers: Entry[]; tasks: Entry[]; synonyms: string[][] }>(fileSchema, parsed, label);
    if (!content) return;
    content.providers.forEach((entry, index) => this.addProvider(entry, label, `providers[${index}]`));
    content.tasks.forEach((entry, index) => this.addTask(entry, label, `tasks[${index}]`));
    this.synonyms.push(...content.synonyms);
    this.counts.set(file, { providers: content.providers.length, tasks: content.tasks.length });
  }

  private read(file: string, label: string): unknown {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      this.problem(label, 'cannot be read');
      return undefined;
    }
    const yaml = /\.ya?ml$/i.test(file);
    const key = `${yaml ? 'yaml' : 'json'}\u0000${text}`;
    try {
      if (!parsedFiles.has(key)) parsedFiles.set(key, (yaml ? YAML.parse(text) : JSON.parse(text)) ?? {});
      return structuredClone(parsedFiles.get(key));
    } catch (err) {
      this.problem(label, `is not valid ${yaml ? 'YAML' : 'JSON'}: ${(err as Error).message.split('\n')[0]}`);
      return undefined;
    }
  }

  private addProvider(entry: Entry, file: string, at: string): void {
    const where = `${file}: ${at}`;
    const existing = typeof entry.slug === 'string' ? this.providers.get(entry.slug) : undefined;
    if (existing) {
      const extra = Object.keys(entry).filter((key) => key !== 'slug' && key !== 'base_url');
      if (extra.length) {
        this.problem(where, `provider ${entry.slug} is already declared (${existing.where}); a later file may only override its base_url, not ${extra.join(', ')}`);
        return;
      }
      const override = this.validate<{ slug: string; base_url: string }>(providerOverrideSchema, entry, file, at);
      if (override) existing.value = { ...existing.value, base_url: override.base_url };
      return;
    }
    const provider = this.validate<Provider>(providerSchema, entry, file, at);
    if (provider) this.providers.set(provider.slug, { value: { ...provider, base_url: provider.base_url ?? '' }, where });
  }

  private addTask(entry: Entry, file: string, at: string): void {
    const where = `${file}: ${at}`;
    const task = this.validate<Omit<Task, 'price_micros'>>(taskSchema, entry, file, at);
    if (!task) return;
    const existing = this.tasks.get(task.id);
    if (existing) return this.problem(`${where}.id`, `task id ${task.id} is already declared (${existing.where})`);
    this.tasks.set(task.id, { value: { ...task, price_micros: Math.round(task.price_usd * 1_000_000) }, where });
  }

  /** Rules that need the merged catalog: every task against its provider, its handler and its own schema. */
  crossCheck(): void {
    for (const { value: task, where } of this.tasks.values()) {
      const provider = this.providers.get(task.provider)?.value;
      if (!provider) this.problem(`${where}.provider`, `provider ${task.provider} is not declared`);
      if (!task.id.startsWith(`${task.provider}.`)) this.problem(`${where}.id`, `must start with its provider: ${task.provider}.`);
      if (task.kind === 'utility') this.checkUtility(task, where);
      else this.checkUpstream(task, where, provider);
      this.checkInput(task, where);
      for (const { place, reason } of task.output ? outputSchemaProblems(task.output) : []) this.problem([`${where}.output`, place].filter(Boolean).join('.'), reason);
    }
  }

  private checkUtility(task: Omit<Task, 'price_micros'>, where: string): void {
    if (task.provider !== BUILTIN_PROVIDER) this.problem(`${where}.provider`, `utility tasks belong to provider ${BUILTIN_PROVIDER}`);
    if (task.request) this.problem(`${where}.request`, 'utility tasks run in-process and take no request');
    if (task.not_found) this.problem(`${where}.not_found`, 'utility tasks make no upstream call');
    if (!task.handler) this.problem(`${where}.handler`, `is required for utility tasks; one of ${Object.keys(builtinHandlers).join(', ')}`);
    else if (!Object.hasOwn(builtinHandlers, task.handler)) {
      this.problem(`${where}.handler`, `no built-in handler ${task.handler}; one of ${Object.keys(builtinHandlers).join(', ')}`);
    }
  }

  private checkUpstream(task: Omit<Task, 'price_micros'>, where: string, provider: Provider | undefined): void {
    if (task.provider === BUILTIN_PROVIDER) this.problem(`${where}.kind`, `tasks of provider ${BUILTIN_PROVIDER} must be of kind utility`);
    if (task.handler) this.problem(`${where}.handler`, 'only utility tasks name a handler');
    if (!task.request) this.problem(`${where}.request`, `is required for ${task.kind} tasks`);
    if (task.kind === 'account' && provider?.auth.type === 'none') {
      this.problem(`${where}.kind`, `account tasks act in an end user's account; provider ${provider.slug} has auth none`);
    }
  }

  /** Compiles the input schema and checks every template field is an input field. */
  private checkInput(task: Task, where: string): void {
    try {
      attachValidator(task, compileInputSchema(task.input));
    } catch (err) {
      this.problem(`${where}.input`, `is not a valid JSON Schema: ${(err as Error).message.split('\n')[0]}`);
      return;
    }
    if (!task.request) return;
    const properties = (task.input.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((task.input.required ?? []) as string[]);
    const known = (field: string, at: string) => {
      if (!Object.hasOwn(properties, field)) this.problem(`${where}.${at}`, `names {${field}}, which is not a property of input`);
    };
    for (const field of placeholdersOf(task.request.path)) {
      known(field, 'request.path');
      if (Object.hasOwn(properties, field) && !required.has(field) && properties[field].default === undefined) {
        this.problem(`${where}.request.path`, `names {${field}}, which input must make required or give a default`);
      }
    }
    for (const [name, template] of Object.entries(task.request.query ?? {})) placeholdersOf(template).forEach((field) => known(field, `request.query.${name}`));
    for (const field of templateFields(task.request.body)) known(field, 'request.body');
  }

  applyConfigOverrides(overrides: Config['providers']): void {
    for (const [slug, override] of Object.entries(overrides)) {
      const provider = this.providers.get(slug);
      if (provider && override.base_url) provider.value = { ...provider.value, base_url: override.base_url };
    }
  }
}

function templateFields(template: JsonTemplate | undefined): string[] {
  if (typeof template === 'string') return placeholdersOf(template);
  if (Array.isArray(template)) return template.flatMap(templateFields);
  if (template && typeof template === 'object') return Object.values(template).flatMap(templateFields);
  return [];
}

/** Sorted keys at every level, so the same content always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The platform credential is read once, at load, from the environment variable the catalog names. */
function withPlatformSecret(provider: Provider, env: NodeJS.ProcessEnv): Provider {
  const name = provider.platform_credential?.env;
  const secret = name ? env[name] || undefined : undefined;
  return { ...provider, platformSecret: () => secret };
}

export interface CatalogFileCount {
  file: string;
  providers: number;
  tasks: number;
}

/** Loads catalog files in order into one validated catalog; throws CatalogError listing every problem. */
export function buildCatalog(
  files: string[],
  overrides: Config['providers'] = {},
  env: NodeJS.ProcessEnv = process.env,
): { catalog: Catalog; counts: CatalogFileCount[] } {
  const builder = new CatalogBuilder();
  for (const file of files) builder.addFile(file);
  builder.crossCheck();
  if (builder.problems.length) throw new CatalogError(builder.problems);
  builder.applyConfigOverrides(overrides);

  const plainProviders = [...builder.providers.values()].map((declared) => declared.value);
  const tasks = new Map([...builder.tasks.values()].map(({ value }) => [value.id, value]));
  const version = createHash('sha256')
    .update(canonical({ providers: plainProviders, tasks: [...tasks.values()], synonyms: builder.synonyms }))
    .digest('hex')
    .slice(0, 12);
  const providers = new Map(plainProviders.map((provider) => [provider.slug, withPlatformSecret(provider, env)]));
  const byCapability = new Map<string, Task[]>();
  for (const task of tasks.values()) byCapability.set(task.capability, [...(byCapability.get(task.capability) ?? []), task]);
  const catalog: Catalog = {
    version,
    providers,
    tasks,
    synonyms: builder.synonyms,
    tasksForCapability: (capability) => byCapability.get(capability) ?? [],
  };
  return { catalog, counts: files.map((file) => ({ file: labelOf(file), ...(builder.counts.get(file) ?? { providers: 0, tasks: 0 }) })) };
}

/** The built-in catalog, then each of `catalog.files`; then config `providers.<slug>.base_url`. */
export function loadCatalog(config: Config): Catalog {
  return buildCatalog([...builtinCatalogFiles(), ...config.catalog.files], config.providers).catalog;
}
