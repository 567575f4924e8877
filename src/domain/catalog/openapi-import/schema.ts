import { bounded, firstParagraph } from './text.js';

/**
 * An OpenAPI 3.0/3.1 schema as the JSON Schema (draft-07) a catalog task declares: what Ajv compiles in strict
 * mode for an input, and what the loader accepts as an output (docs/catalog.md, "Imported catalogs"). Rules:
 * OpenAPI's own keywords go (`nullable` becomes a `null` type; `discriminator`, `xml`, `example`,
 * `externalDocs`, `x-*` are dropped); keywords draft-07 lacks are dropped (the schema says less, never more);
 * a type-specific keyword without its type gets the type when it is the only one implied, else it is dropped;
 * formats Ajv does not know and patterns JavaScript cannot compile are dropped; `$ref`s become
 * `#/definitions/<name>` beside the schema, so a task's schema stands alone.
 */

type Schema = Record<string, unknown>;
type Json = unknown;

/** Formats ajv-formats knows (the loader's Ajv refuses any other in strict mode). */
const KNOWN_FORMATS = new Set([
  'date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url', 'email', 'hostname',
  'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment', 'relative-json-pointer', 'byte', 'int32', 'int64', 'float',
  'double', 'password', 'binary',
]);

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Keywords that apply to one type only; without that type among the schema's, strict Ajv refuses them. */
const TYPED_KEYWORDS: Record<string, string> = {
  properties: 'object', required: 'object', additionalProperties: 'object', patternProperties: 'object', propertyNames: 'object',
  minProperties: 'object', maxProperties: 'object', dependencies: 'object',
  items: 'array', minItems: 'array', maxItems: 'array', uniqueItems: 'array', contains: 'array', additionalItems: 'array',
  minLength: 'string', maxLength: 'string', pattern: 'string', format: 'string',
  minimum: 'number', maximum: 'number', exclusiveMinimum: 'number', exclusiveMaximum: 'number', multipleOf: 'number',
};

export interface SchemaOptions {
  /** Request schemas leave out `readOnly` members (the provider sets them); answers keep them. */
  use: 'input' | 'output';
  /** Descriptions inside the schema are cut to this many characters. */
  describe: number;
  /** `$ref`s this many definitions deep are left as a bare type (keeps large, deeply linked answers bounded). */
  maxRefDepth: number;
  /** The most definitions one converter writes; one more is a TooManyDefinitions, for the caller to go less deep. */
  maxDefinitions: number;
}

/**
 * A schema that would need more than `maxDefinitions` definitions: in a description whose schemas all link to
 * each other (Microsoft Graph's 6,000), one task would otherwise carry most of them.
 */
export class TooManyDefinitions extends Error {}

/** Resolves an internal `#/...` pointer of the description. */
export type Resolve = (ref: string) => Json;

/** Converts schemas of one task: its definitions are shared across the calls of one converter. */
export class SchemaConverter {
  private readonly names = new Map<string, string>();
  private readonly definitions = new Map<string, Schema>();
  private readonly depthOf = new Map<string, number>();

  constructor(
    private readonly resolve: Resolve,
    private readonly options: SchemaOptions,
  ) {}

  /** The draft-07 form of `schema`; `{}` when nothing of it survives. */
  convert(schema: Json, refDepth = 0): Schema {
    if (schema === true || schema === undefined) return {};
    if (schema === false) return { not: {} };
    if (!isObject(schema)) return {};
    if (typeof schema.$ref === 'string') return this.reference(schema.$ref, refDepth);
    const out: Schema = {};
    let types = typesOf(schema);
    if (schema.nullable === true && types) types = [...new Set([...types, 'null'])];
    for (const [keyword, value] of Object.entries(schema)) {
      switch (keyword) {
        case 'title':
          if (typeof value === 'string' && value.trim()) out.title = bounded(value.trim(), 200);
          break;
        case 'description':
          if (typeof value === 'string' && this.options.describe > 0) {
            const text = bounded(firstParagraph(value), this.options.describe);
            if (text) out.description = text;
          }
          break;
        case 'enum':
          if (Array.isArray(value) && value.length) out.enum = schema.nullable === true && !value.includes(null) ? [...value, null] : value;
          break;
        case 'const':
          out.const = value;
          break;
        case 'readOnly':
        case 'writeOnly':
        case 'deprecated':
          if (typeof value === 'boolean') out[keyword] = value;
          break;
        case 'properties': {
          if (!isObject(value)) break;
          const properties: Schema = {};
          for (const [name, member] of Object.entries(value)) {
            if (this.options.use === 'input' && isObject(member) && member.readOnly === true) continue;
            properties[name] = this.convert(member, refDepth);
          }
          out.properties = properties;
          break;
        }
        case 'patternProperties':
          if (isObject(value)) {
            const kept = Object.entries(value).filter(([pattern]) => compiles(pattern));
            if (kept.length) out.patternProperties = Object.fromEntries(kept.map(([pattern, member]) => [pattern, this.convert(member, refDepth)]));
          }
          break;
        case 'required':
          if (Array.isArray(value) && value.every((name) => typeof name === 'string')) out.required = [...new Set(value as string[])];
          break;
        case 'additionalProperties':
        case 'propertyNames':
        case 'not':
        case 'contains':
          if (typeof value === 'boolean') out[keyword] = value;
          else if (isObject(value)) out[keyword] = this.convert(value, refDepth);
          break;
        case 'items':
          // A tuple (`items: [...]`) is said in too many ways across versions; its members are left unchecked.
          if (isObject(value) || typeof value === 'boolean') out.items = this.convert(value, refDepth);
          break;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
          if (Array.isArray(value) && value.length) out[keyword] = value.map((member) => this.convert(member, refDepth));
          break;
        case 'minimum':
        case 'maximum':
        case 'multipleOf':
        case 'minLength':
        case 'maxLength':
        case 'minItems':
        case 'maxItems':
        case 'minProperties':
        case 'maxProperties':
          // Counts must be whole and not negative, a multiple above zero: anything else fails the meta-schema.
          if (typeof value !== 'number' || !Number.isFinite(value) || (keyword === 'multipleOf' && value <= 0)) break;
          if (/Length|Items|Properties/.test(keyword) && (!Number.isInteger(value) || value < 0)) break;
          out[keyword] = value;
          break;
        case 'exclusiveMinimum':
        case 'exclusiveMaximum': {
          // OpenAPI 3.0 says `exclusiveMinimum: true` beside `minimum`; draft-07 says `exclusiveMinimum: <number>`.
          const bound = keyword === 'exclusiveMinimum' ? schema.minimum : schema.maximum;
          if (typeof value === 'number') out[keyword] = value;
          else if (value === true && typeof bound === 'number') out[keyword] = bound;
          break;
        }
        case 'uniqueItems':
          if (typeof value === 'boolean') out.uniqueItems = value;
          break;
        case 'pattern':
          if (typeof value === 'string' && compiles(value)) out.pattern = value;
          break;
        case 'format':
          if (typeof value === 'string' && KNOWN_FORMATS.has(value)) out.format = value;
          break;
        default:
          // type, nullable (handled above); OpenAPI-only and unknown keywords are dropped.
          break;
      }
    }
    // `exclusiveMinimum: true` turned into the bound itself: the inclusive bound beside it says nothing more.
    if (schema.exclusiveMinimum === true && out.exclusiveMinimum !== undefined) delete out.minimum;
    if (schema.exclusiveMaximum === true && out.exclusiveMaximum !== undefined) delete out.maximum;
    return withTypes(out, types);
  }

  /** The definitions the converted schemas refer to, by name. */
  definitionsUsed(): Schema | undefined {
    return this.definitions.size ? Object.fromEntries([...this.definitions].sort(([a], [b]) => (a < b ? -1 : 1))) : undefined;
  }

  private reference(ref: string, refDepth: number): Schema {
    if (!ref.startsWith('#/')) return {};
    const target = this.resolve(ref);
    if (target === undefined) return {};
    if (refDepth >= this.options.maxRefDepth) return bareType(target, this.resolve);
    let name = this.names.get(ref);
    if (!name && this.definitions.size >= this.options.maxDefinitions) throw new TooManyDefinitions();
    if (!name || (this.depthOf.get(ref) ?? 0) > refDepth + 1) {
      name ??= this.nameFor(ref);
      this.names.set(ref, name);
      this.depthOf.set(ref, refDepth + 1);
      // Placed before converting, so a schema that refers to itself finds its own name.
      this.definitions.set(name, {});
      this.definitions.set(name, this.convert(target, refDepth + 1));
    }
    return { $ref: `#/definitions/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` };
  }

  private nameFor(ref: string): string {
    const steps = ref.slice(2).split('/').map((step) => decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~'));
    const base = (steps[0] === 'components' && steps.length === 3 ? steps[2] : steps.slice(-3).join('.')).replace(/[^A-Za-z0-9_.-]+/g, '_') || 'schema';
    let name = base;
    for (let n = 2; [...this.names.values()].includes(name); n += 1) name = `${base}_${n}`;
    return name;
  }
}

/** The declared type(s) we can keep, or undefined when the schema names none we know. */
function typesOf(schema: Schema): string[] | undefined {
  const declared = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const known = declared.filter((type): type is string => typeof type === 'string' && JSON_TYPES.has(type));
  return known.length ? [...new Set(known)] : undefined;
}

/**
 * Strict Ajv refuses a type-specific keyword unless its type is declared: a schema without a type gets the one
 * its keywords imply when they imply exactly one and nothing else decides the type (no composition); otherwise
 * the keywords of types it does not declare are dropped.
 */
function withTypes(out: Schema, types: string[] | undefined): Schema {
  let kept = types;
  if (!kept) {
    const implied = new Set(Object.keys(out).filter((keyword) => TYPED_KEYWORDS[keyword]).map((keyword) => TYPED_KEYWORDS[keyword]));
    const composed = ['allOf', 'anyOf', 'oneOf', 'enum', 'const', 'not'].some((keyword) => keyword in out);
    if (implied.size === 1 && !composed) kept = [...implied];
  }
  const allows = (type: string) => Boolean(kept?.includes(type) || (type === 'number' && kept?.includes('integer')));
  for (const keyword of Object.keys(out)) {
    const type = TYPED_KEYWORDS[keyword];
    if (type && !allows(type)) delete out[keyword];
  }
  if (kept) out.type = kept.length === 1 ? kept[0] : kept;
  // A type before the other keywords reads better in the generated file.
  return kept ? { type: out.type, ...out } : out;
}

/** What is left of a schema too deep to describe: its type (following its own `$ref`s a few steps). */
function bareType(schema: Json, resolve: Resolve, steps = 0): Schema {
  if (!isObject(schema) || steps > 5) return {};
  if (typeof schema.$ref === 'string') return schema.$ref.startsWith('#/') ? bareType(resolve(schema.$ref), resolve, steps + 1) : {};
  const types = typesOf(schema);
  if (schema.nullable === true && types) types.push('null');
  return types ? { type: types.length === 1 ? types[0] : [...new Set(types)] } : {};
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
