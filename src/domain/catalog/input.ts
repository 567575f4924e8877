import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { invalidInput, type GatewayError, type InvalidParam } from '../errors.js';
import { inspectJson } from '../json-values.js';
import { pathFieldProblems } from '../../providers/templates.js';
import type { JsonSchema, Task } from './types.js';

/**
 * One Ajv for every task's input schema. `strict` makes a typo in a catalog schema (an unknown keyword or
 * format) a load error instead of a silently ignored rule, except `required` inside `anyOf`, a common way
 * to say "one of these fields"; `useDefaults` fills declared defaults into the input so templates see them.
 */
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, useDefaults: true, allowUnionTypes: true });
addFormats.default(ajv);

const compiled = new WeakMap<Task, ValidateFunction>();

/** Compiling costs milliseconds; tasks with the same schema (and every reload of a catalog) share one validator. */
const bySchemaText = new Map<string, ValidateFunction>();

/** Compiles a schema, or throws with Ajv's reason; the loader calls it for every task at load. */
export function compileInputSchema(schema: JsonSchema): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = bySchemaText.get(text);
  if (!validate) {
    validate = ajv.compile(structuredClone(schema));
    bySchemaText.set(text, validate);
  }
  return validate;
}

/** Keywords whose value is a schema, a list of schemas, or an object whose values are schemas. */
const ONE_SCHEMA = ['additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'if', 'then', 'else', 'not', 'contentSchema'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];

/** `a.b[0]` of a place inside a schema, as problems name it. */
const placeName = (steps: string[]) => steps.reduce((name, step) => (/^\d+$/.test(step) ? `${name}[${step}]` : name ? `${name}.${step}` : step), '');

/**
 * A task's output schema is never compiled, since nothing is validated against it; it is held to what compiling
 * would check: the draft-07 meta-schema, no keyword Ajv does not know (a typo such as `propertys` would otherwise
 * say nothing), and every `$ref` a `#/...` pointer that resolves inside the schema (a catalog file stands alone).
 * Each problem's place is relative to the schema (`properties.id.type`; empty for the schema itself).
 */
export function outputSchemaProblems(schema: JsonSchema): Array<{ place: string; reason: string }> {
  if (!ajv.validateSchema(schema)) {
    const byPlace = new Map<string, string>();
    for (const error of ajv.errors ?? []) {
      const place = placeName(error.instancePath.split('/').slice(1).map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~')));
      if (!byPlace.has(place)) byPlace.set(place, error.message ?? 'is invalid');
    }
    return [...byPlace].map(([place, reason]) => ({ place, reason }));
  }
  const problems: Array<{ place: string; reason: string }> = [];
  const visit = (node: unknown, steps: string[]): void => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    for (const [keyword, value] of Object.entries(node)) {
      const at = [...steps, keyword];
      if (!ajv.RULES.keywords[keyword]) problems.push({ place: placeName(at), reason: 'is not a JSON Schema keyword' });
      else if (keyword === '$ref' && !resolvesIn(schema, value as string)) problems.push({ place: placeName(at), reason: 'must be a #/... pointer into this schema' });
      else if (keyword === 'items' && Array.isArray(value)) value.forEach((item, index) => visit(item, [...at, String(index)]));
      else if (ONE_SCHEMA.includes(keyword) || keyword === 'items') visit(value, at);
      else if (SCHEMA_LISTS.includes(keyword)) (value as unknown[]).forEach((item, index) => visit(item, [...at, String(index)]));
      else if (SCHEMA_MAPS.includes(keyword)) for (const [name, item] of Object.entries(value as object)) visit(item, [...at, name]);
    }
  };
  visit(schema, []);
  return problems;
}

function resolvesIn(root: unknown, ref: string): boolean {
  if (!ref.startsWith('#')) return false;
  let node = root;
  for (const step of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** Remembers a task's compiled validator so a run never compiles. */
export function attachValidator(task: Task, validate: ValidateFunction): void {
  compiled.set(task, validate);
}

/** A field's name as callers write it: `latitude`, `attendees[0].email`; the input itself is `input`. */
function fieldName(steps: Array<string | number>): string {
  return steps.reduce<string>((name, step) => (typeof step === 'number' ? `${name}[${step}]` : name ? `${name}.${step}` : step), '') || 'input';
}

function failingField(error: ErrorObject): string {
  const steps: Array<string | number> = error.instancePath
    .split('/')
    .slice(1)
    .map((step) => (/^\d+$/.test(step) ? Number(step) : step.replace(/~1/g, '/').replace(/~0/g, '~')));
  if (error.keyword === 'required') steps.push((error.params as { missingProperty: string }).missingProperty);
  if (error.keyword === 'additionalProperties') steps.push((error.params as { additionalProperty: string }).additionalProperty);
  return fieldName(steps);
}

function reasonOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not allowed';
  if (error.keyword === 'enum') return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return error.message ?? 'is invalid';
}

/**
 * The task input's problems, one per failing field (`name` is the field's path, e.g. `latitude` or
 * `attendees[0].email`); empty when the input is valid. First the task's JSON Schema (declared defaults
 * are filled in), then the fields its request path takes.
 */
export function taskInputProblems(task: Task, input: unknown): InvalidParam[] {
  let validate = compiled.get(task);
  if (!validate) {
    validate = compileInputSchema(task.input);
    compiled.set(task, validate);
  }
  if (!validate(input)) {
    const seen = new Set<string>();
    const problems: InvalidParam[] = [];
    for (const error of validate.errors ?? []) {
      const problem = { name: failingField(error), reason: reasonOf(error) };
      const key = `${problem.name}\u0000${problem.reason}`;
      if (!seen.has(key)) problems.push(problem);
      seen.add(key);
    }
    return problems;
  }
  return task.request ? pathFieldProblems(task.request.path, input as Record<string, unknown>) : [];
}

function inputRefused(task: Task, problems: InvalidParam[]): GatewayError {
  return invalidInput(`the input does not match ${task.id}: ${problems.map((p) => `${p.name} ${p.reason}`).join('; ')}`, problems);
}

/** Throws 400 invalid_input with `invalid_params` when the input does not match the task's schema. */
export function checkTaskInput(task: Task, input: unknown): void {
  const problems = taskInputProblems(task, input);
  if (problems.length) throw inputRefused(task, problems);
}

/**
 * A caller's task input checked in one walk before anything else reads it: no string (a value or a member
 * name) holding NUL or a lone surrogate, nothing nested deeper than the JSON limit, at most `maxNodes` values
 * (limits.max_input_nodes). Refused with 400 invalid_input naming the field, before anything is written or sent.
 */
export function checkInputShape(task: Task, input: unknown, maxNodes: number): void {
  const problem = inspectJson(input, { maxNodes });
  if (problem) throw inputRefused(task, [{ name: fieldName(problem.path), reason: problem.reason }]);
}
