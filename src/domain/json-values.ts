/** How deep JSON in a request may nest (the outermost object or array is level 1); deeper is invalid_input. */
export const MAX_JSON_DEPTH = 64;

/** A value that no input may hold, and where it is: `path` leads from the outermost value to it. */
export interface IllFormedValue {
  path: Array<string | number>;
  reason: string;
}

export interface JsonBounds {
  /** Check every string (values and member names) for NUL and lone surrogates; false looks at the shape only. */
  text?: boolean;
  /** Containers one inside the other; MAX_JSON_DEPTH unless given. */
  maxDepth?: number;
  /** Values in all (containers and scalars, the outermost one included); unbounded unless given. */
  maxNodes?: number;
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (!text.isWellFormed()) return 'must not contain a lone surrogate';
  return undefined;
}

/** A container being walked: its member names (objects) or null (arrays), and the next position to visit. */
interface Frame {
  container: Record<string, unknown> | unknown[];
  keys: string[] | null;
  next: number;
}

function stepOf(frame: Frame): string | number {
  return frame.keys ? frame.keys[frame.next - 1] : frame.next - 1;
}

function frameOf(container: object): Frame {
  return Array.isArray(container)
    ? { container, keys: null, next: 0 }
    : { container: container as Record<string, unknown>, keys: Object.keys(container), next: 0 };
}

/**
 * The first problem of a parsed JSON value, in document order: a string (a value or a member name) holding
 * NUL or a lone surrogate, a member nested deeper than `maxDepth`, or more values than `maxNodes`; undefined
 * when there is none. One walk with its own stack that stops at the first problem, so a body nested ten
 * thousand levels deep or holding a million values costs no more than one just over the limit. Nesting is
 * reported at the outermost member holding it (the field a caller knows), too many values at the whole value.
 */
export function inspectJson(value: unknown, { text = true, maxDepth = MAX_JSON_DEPTH, maxNodes = Number.POSITIVE_INFINITY }: JsonBounds = {}): IllFormedValue | undefined {
  if (maxNodes < 1) return { path: [], reason: `holds more than ${maxNodes} values` };
  if (typeof value === 'string') {
    const reason = text ? textProblem(value) : undefined;
    return reason ? { path: [], reason } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (maxDepth < 1) return { path: [], reason: `is nested deeper than ${maxDepth} levels` };
  const stack: Frame[] = [frameOf(value)];
  const path = () => stack.map(stepOf);
  let nodes = 1;
  while (stack.length) {
    const frame = stack[stack.length - 1];
    const { container, keys } = frame;
    if (frame.next >= (keys ? keys.length : (container as unknown[]).length)) {
      stack.pop();
      continue;
    }
    const position = frame.next++;
    let item: unknown;
    if (keys) {
      const name = keys[position];
      const nameProblem = text ? textProblem(name) : undefined;
      if (nameProblem) return { path: path(), reason: `its name ${nameProblem}` };
      item = (container as Record<string, unknown>)[name];
    } else {
      item = (container as unknown[])[position];
    }
    if (++nodes > maxNodes) return { path: [], reason: `holds more than ${maxNodes} values` };
    if (typeof item === 'string') {
      const reason = text ? textProblem(item) : undefined;
      if (reason) return { path: path(), reason };
    } else if (typeof item === 'object' && item !== null) {
      if (stack.length >= maxDepth) return { path: path().slice(0, 1), reason: `is nested deeper than ${maxDepth} levels` };
      stack.push(frameOf(item));
    }
  }
  return undefined;
}
