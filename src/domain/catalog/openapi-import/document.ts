import { bundle } from '@readme/openapi-parser';
import swagger2openapi from 'swagger2openapi';
import { load } from 'js-yaml';
import { isObject } from './schema.js';

/** A description the importer cannot read: one line saying why. */
export class ImportError extends Error {}

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths?: Record<string, unknown> };

/** What the description was before it was read as OpenAPI 3: `swagger 2.0`, `openapi 3.0.3`, `openapi 3.1.0`. */
export interface ReadDescription {
  document: OpenApiDocument;
  format: string;
}

/**
 * Reads an OpenAPI 3.0/3.1 or Swagger 2.0 description (JSON or YAML text). References to other files are
 * bundled in by @readme/openapi-parser when the description was read from a file (`file` is its path; never
 * over the network: nothing is downloaded); Swagger 2.0 is converted to OpenAPI 3.0 by swagger2openapi.
 */
export async function readDescription(text: string, file?: string): Promise<ReadDescription> {
  let parsed: unknown;
  try {
    parsed = /^\s*\{/.test(text) ? JSON.parse(text) : load(text, { maxAliases: 10_000 });
  } catch (err) {
    throw new ImportError(`is neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isObject(parsed)) throw new ImportError('is not an OpenAPI or Swagger description (no object at the top)');
  const swagger = parsed.swagger;
  const openapi = parsed.openapi;
  if (swagger !== undefined && String(swagger) !== '2.0') throw new ImportError(`is Swagger ${String(swagger)}; only 2.0 can be imported`);
  if (swagger === undefined && !(typeof openapi === 'string' && /^3\.[01]\./.test(openapi))) {
    throw new ImportError(openapi === undefined ? 'is not an OpenAPI 3.0/3.1 or Swagger 2.0 description (no `openapi` or `swagger` field)' : `is OpenAPI ${String(openapi)}; 3.0 and 3.1 can be imported`);
  }
  const format = swagger !== undefined ? 'swagger 2.0' : `openapi ${String(openapi)}`;
  if (hasExternalRef(parsed)) {
    if (!file) throw new ImportError('refers to other files ($ref); give it as a file rather than on standard input');
    try {
      // `http: false` (json-schema-ref-parser's way to turn the HTTP resolver off) is missing from the types.
      parsed = await bundle(file, { resolve: { external: true, file: true, http: false } } as unknown as Parameters<typeof bundle>[1]);
    } catch (err) {
      throw new ImportError(`has a $ref that cannot be resolved: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (swagger !== undefined) {
    try {
      const converted = await swagger2openapi.convertObj(parsed, { patch: true, warnOnly: true, resolve: false });
      parsed = converted.openapi;
    } catch (err) {
      throw new ImportError(`is Swagger 2.0 that cannot be converted to OpenAPI 3: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return { document: parsed as OpenApiDocument, format };
}

/** Whether any `$ref` points outside the document (to another file). */
function hasExternalRef(node: unknown): boolean {
  const stack = [node];
  while (stack.length) {
    const next = stack.pop();
    if (Array.isArray(next)) stack.push(...next);
    else if (isObject(next)) {
      if (typeof next.$ref === 'string' && !next.$ref.startsWith('#')) return true;
      stack.push(...Object.values(next));
    }
  }
  return false;
}

/** Follows an internal `#/a/b` pointer (each step JSON-pointer and URI decoded); undefined when it leads nowhere. */
export function pointerTarget(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node = document;
  for (const step of ref.slice(1).split('/').slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
