/** How deep JSON in a request may nest (the outermost object or array is level 1); deeper is invalid_input. */
export const MAX_JSON_DEPTH = 64;

/** A value that no input may hold, and where it is: `path` leads from the outermost value to it. */
export interface IllFormedValue {
  path: Array<string | number>;
  reason: string;
}

interface Visit {
  value: unknown;
  /** Containers around the value: 0 for the outermost value. */
  depth: number;
  key?: string | number;
  parent?: Visit;
}

function pathTo(visit: Visit): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.unshift(at.key!);
  return path;
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (!text.isWellFormed()) return 'must not contain a lone surrogate';
  return undefined;
}

/**
 * The first string (a value or a member name) holding NUL or a lone surrogate, or the first member nested
 * deeper than `maxDepth` (MAX_JSON_DEPTH unless given), in document order; undefined when there is none
 * (`text: false` looks at the nesting only). Nesting is reported at the outermost member holding it, which is the field a caller
 * knows. The walk keeps its own stack and stops at the limit, so a body nested ten thousand levels deep
 * costs no more than one nested sixty-five.
 */
export function findIllFormedValue(value: unknown, { text = true, maxDepth = MAX_JSON_DEPTH } = {}): IllFormedValue | undefined {
  const pending: Visit[] = [{ value, depth: 0 }];
  while (pending.length) {
    const visit = pending.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      const reason = text ? textProblem(current) : undefined;
      if (reason) return { path: pathTo(visit), reason };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (visit.depth >= maxDepth) return { path: pathTo(visit).slice(0, 1), reason: `is nested deeper than ${maxDepth} levels` };
    const entries: Array<[string | number, unknown]> = Array.isArray(current) ? current.map((item, index) => [index, item]) : Object.entries(current);
    for (const [key] of entries) {
      const nameProblem = text && typeof key === 'string' ? textProblem(key) : undefined;
      if (nameProblem) return { path: [...pathTo(visit), key], reason: `its name ${nameProblem}` };
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      if (typeof item === 'string' || (typeof item === 'object' && item !== null)) pending.push({ value: item, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return undefined;
}
