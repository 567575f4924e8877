import { InputRefused } from '../errors.js';

/** RFC 6901: `/a/0/b`, with `~1` for `/` and `~0` for `~`. */
function pointerSteps(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Dot and bracket notation as most people write it: `$.items[0].name`, `items.0.name`, `a["b.c"]`. */
function dottedSteps(path: string): string[] {
  const steps: string[] = [];
  const pattern = /\.?([^.[\]]+)|\[(\d+)\]|\[(["'])(.*?)\3\]/gy;
  const body = path.replace(/^\$/, '');
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(body)) !== null) {
    steps.push(match[1] ?? match[2] ?? match[4]);
    consumed = pattern.lastIndex;
  }
  if (consumed !== body.length) {
    throw new InputRefused(`cannot read the path ${path}`, [{ name: 'path', reason: 'must be a JSON pointer (/a/0/b) or a dotted path ($.a[0].b)' }]);
  }
  return steps;
}

export function extractJson(input: { document: unknown; path: string }) {
  const steps = input.path === '' || input.path.startsWith('/') ? pointerSteps(input.path) : dottedSteps(input.path);
  let node: unknown = input.document;
  for (const step of steps) {
    const container = node as Record<string, unknown> | unknown[] | null;
    const found =
      Array.isArray(container) ? /^(0|[1-9]\d*)$/.test(step) && Number(step) < container.length
      : typeof container === 'object' && container !== null && Object.hasOwn(container, step);
    if (!found) return { path: input.path, found: false, value: null };
    node = (container as Record<string, unknown>)[step];
  }
  return { path: input.path, found: true, value: node };
}
