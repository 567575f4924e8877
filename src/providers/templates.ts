import type { FieldProblem } from './errors.js';

/** `{name}` in templates: an input field. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Input fields a template string names, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

/** How a request template writes a field's value: text as it is, anything else as its JSON text. */
export function templateText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** Each catalog path template's fields, found once per template (as many as the catalog's tasks). */
const fieldsOfPath = new Map<string, readonly string[]>();

function pathFields(path: string): readonly string[] {
  let fields = fieldsOfPath.get(path);
  if (!fields) fieldsOfPath.set(path, (fields = [...new Set(placeholdersOf(path))]));
  return fields;
}

/**
 * A path field's value is exactly one path segment (it is percent-encoded whole, `/` included): absent,
 * empty, `.` or `..` would send the request, credential and all, to another path of the provider.
 */
export function pathFieldProblems(path: string, input: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of pathFields(path)) {
    const value = input[field];
    if (value === undefined || value === null) problems.push({ name: field, reason: 'is required' });
    else if (['', '.', '..'].includes(templateText(value))) problems.push({ name: field, reason: 'must not be empty, "." or "..": it is one segment of the request path' });
  }
  return problems;
}
