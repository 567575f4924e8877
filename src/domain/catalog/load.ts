import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type Joi from 'joi';
import { load } from 'js-yaml';
import { packageRoot } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { builtinHandlers } from '../../providers/builtin/index.js';
import { placeholdersOf } from '../../providers/templates.js';
import { taskAnnotations, type TaskAnnotations } from './annotations.js';
import { CatalogError } from './errors.js';
import { attachValidator, compileInputSchema, outputSchemaProblems } from './input.js';
import { fileSchema, providerOverrideSchema, providerSchema, taskSchema } from './schema.js';
import type { Catalog, JsonSchema, JsonTemplate, Provider, Task } from './types.js';

export { CatalogError } from './errors.js';

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
  /**
   * The entry's own fields that failed their shape (already reported). Such an entry is kept, so the checks
   * against the rest of the catalog still run on its sound fields and report every problem at once; its
   * problems stop the load, so it never reaches a catalog.
   */
  unfit: ReadonlySet<string>;
}

/** An entry's value as joi left it (defaults filled in), and its fields that failed. */
interface Checked<T> {
  value: T;
  unfit: Set<string>;
}

/** Merges catalog files in order, collecting every problem rather than stopping at the first. */
class CatalogBuilder {
  readonly problems: string[] = [];
  readonly providers = new Map<string, Declared<Provider>>();
  /** Keyed by id; a task whose id is unfit is kept under its place in the file instead. */
  readonly tasks = new Map<string, Declared<Task>>();
  readonly synonyms: string[][] = [];
  readonly counts = new Map<string, { providers: number; tasks: number }>();

  private problem(where: string, message: string): void {
    this.problems.push(`${where}: ${message}`);
  }

  /** joi's details as `file: entry.field: message` lines; the value with the top-level fields that failed. */
  private validate<T>(schema: Joi.Schema, value: unknown, file: string, entry = ''): Checked<T> {
    const { error, value: checked } = schema.validate(value, validateOptions);
    const unfit = new Set<string>();
    for (const detail of error?.details ?? []) {
      const field = detail.path.reduce<string>((name, step) => (typeof step === 'number' ? `${name}[${step}]` : name ? `${name}.${step}` : String(step)), '');
      const label = `${detail.context?.label ?? ''} `;
      const at = [entry, field].filter(Boolean).join('.');
      this.problem(at ? `${file}: ${at}` : file, detail.message.startsWith(label) ? detail.message.slice(label.length) : detail.message);
      unfit.add(String(detail.path[0] ?? ''));
    }
    return { value: checked as T, unfit };
  }

  addFile(file: string): void {
    const label = labelOf(file);
    const parsed = this.read(file, label);
    if (parsed === undefined) return;
    // An unknown top-level key, or a bad entry, is one problem among the others: everything beside it is still checked.
    const { value: content, unfit } = this.validate<{ providers: unknown[]; tasks: unknown[]; synonyms: string[][] }>(fileSchema, parsed, label);
    if (unfit.has('')) return;
    const entries = (list: unknown) => (Array.isArray(list) ? list.map((entry, index) => [entry, index] as const).filter(([entry]) => isObject(entry)) : []) as Array<[Entry, number]>;
    const providers = entries(content.providers);
    const tasks = entries(content.tasks);
    providers.forEach(([entry, index]) => this.addProvider(entry, label, `providers[${index}]`));
    tasks.forEach(([entry, index]) => this.addTask(entry, label, `tasks[${index}]`));
    if (!unfit.has('synonyms')) this.synonyms.push(...content.synonyms);
    this.counts.set(file, { providers: providers.length, tasks: tasks.length });
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
      if (!parsedFiles.has(key)) parsedFiles.set(key, (yaml ? load(text, { maxAliases: 100 }) : JSON.parse(text)) ?? {});
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
      if (!override.unfit.size) existing.value = { ...existing.value, base_url: override.value.base_url };
      return;
    }
    const { value: provider, unfit } = this.validate<Provider>(providerSchema, entry, file, at);
    // A provider whose slug is sound is declared even when other fields are not, so its tasks are not also told it is missing.
    if (!unfit.has('slug')) this.providers.set(provider.slug, { value: { ...provider, base_url: provider.base_url ?? '' }, where, unfit });
  }

  private addTask(entry: Entry, file: string, at: string): void {
    const where = `${file}: ${at}`;
    const { value: task, unfit } = this.validate<Omit<Task, 'price_micros' | 'annotations'> & { annotations?: Partial<TaskAnnotations> }>(taskSchema, entry, file, at);
    const price_micros = unfit.has('price_usd') ? 0 : Math.round(task.price_usd * 1_000_000);
    const annotations = taskAnnotations(task.kind, task.request?.method, unfit.has('annotations') ? {} : task.annotations);
    const declared = { value: { ...task, price_micros, annotations }, where, unfit };
    if (unfit.has('id')) return void this.tasks.set(where, declared);
    const existing = this.tasks.get(task.id);
    if (existing) return this.problem(`${where}.id`, `task id ${task.id} is already declared (${existing.where})`);
    this.tasks.set(task.id, declared);
  }

  /**
   * Rules that need the merged catalog: every task against its provider, its handler and its own schemas. Each
   * rule runs when the fields it reads are sound, so a task with a bad field is still checked on the others.
   */
  crossCheck(): void {
    for (const { value: task, where, unfit } of this.tasks.values()) {
      const sound = (...fields: string[]) => fields.every((field) => !unfit.has(field));
      const declared = sound('provider') ? this.providers.get(task.provider) : undefined;
      if (sound('provider') && !declared) this.problem(`${where}.provider`, `provider ${task.provider} is not declared`);
      if (sound('id', 'provider') && !task.id.startsWith(`${task.provider}.`)) this.problem(`${where}.id`, `must start with its provider: ${task.provider}.`);
      if (sound('kind', 'provider', 'request', 'handler', 'not_found')) {
        if (task.kind === 'utility') this.checkUtility(task, where);
        else this.checkUpstream(task, where, declared && !declared.unfit.has('auth') ? declared.value : undefined);
      }
      if (sound('input')) this.compileInput(task, where);
      if (sound('request')) this.checkTemplateFields(task, where);
      for (const { place, reason } of task.output && sound('output') ? outputSchemaProblems(task.output) : []) this.problem([`${where}.output`, place].filter(Boolean).join('.'), reason);
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

  private compileInput(task: Task, where: string): void {
    try {
      attachValidator(task, compileInputSchema(task.input));
    } catch (err) {
      this.problem(`${where}.input`, `is not a valid JSON Schema: ${(err as Error).message.split('\n')[0]}`);
    }
  }

  /** Every field a template names is a property of input (checked even when input does not compile). */
  private checkTemplateFields(task: Task, where: string): void {
    if (!task.request) return;
    const input = (task.input ?? {}) as JsonSchema;
    const properties = (isObject(input.properties) ? input.properties : {}) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(input.required) ? (input.required as string[]) : []);
    const known = (field: string, at: string) => {
      if (!Object.hasOwn(properties, field)) this.problem(`${where}.${at}`, `names {${field}}, which is not a property of input`);
    };
    for (const field of placeholdersOf(task.request.path)) {
      known(field, 'request.path');
      if (Object.hasOwn(properties, field) && !required.has(field) && properties[field]?.default === undefined) {
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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
