import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { invalidInput, type InvalidParam } from '../errors.js';
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

/** Remembers a task's compiled validator so a run never compiles. */
export function attachValidator(task: Task, validate: ValidateFunction): void {
  compiled.set(task, validate);
}

function fieldName(error: ErrorObject): string {
  const steps = error.instancePath.split('/').slice(1).map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') steps.push((error.params as { missingProperty: string }).missingProperty);
  if (error.keyword === 'additionalProperties') steps.push((error.params as { additionalProperty: string }).additionalProperty);
  return steps.reduce((name, step) => (/^\d+$/.test(step) ? `${name}[${step}]` : name ? `${name}.${step}` : step), '') || 'input';
}

function reasonOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not allowed';
  if (error.keyword === 'enum') return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return error.message ?? 'is invalid';
}

/**
 * The task input's problems against its JSON Schema, one per failing field (`name` is the field's path,
 * e.g. `latitude` or `attendees[0].email`); empty when the input is valid. Declared defaults are filled in.
 */
export function taskInputProblems(task: Task, input: unknown): InvalidParam[] {
  let validate = compiled.get(task);
  if (!validate) {
    validate = compileInputSchema(task.input);
    compiled.set(task, validate);
  }
  if (validate(input)) return [];
  const seen = new Set<string>();
  const problems: InvalidParam[] = [];
  for (const error of validate.errors ?? []) {
    const problem = { name: fieldName(error), reason: reasonOf(error) };
    const key = `${problem.name}\u0000${problem.reason}`;
    if (!seen.has(key)) problems.push(problem);
    seen.add(key);
  }
  return problems;
}

/** Throws 400 invalid_input with `invalid_params` when the input does not match the task's schema. */
export function checkTaskInput(task: Task, input: unknown): void {
  const problems = taskInputProblems(task, input);
  if (problems.length) {
    throw invalidInput(`the input does not match ${task.id}: ${problems.map((p) => `${p.name} ${p.reason}`).join('; ')}`, problems);
  }
}
