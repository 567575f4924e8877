import type { TaskKind } from './types.js';

/**
 * What running a task does to the world, for agent hosts deciding when to ask their user (MCP tool
 * annotations): whether it only reads, whether it may change or delete what exists (rather than only add),
 * and whether running it twice with the same input does no more than running it once.
 */
export interface TaskAnnotations {
  read_only: boolean;
  destructive: boolean;
  idempotent: boolean;
}

const READS: TaskAnnotations = { read_only: true, destructive: false, idempotent: true };

/** An account task's effect by its upstream method: reads, adds (POST), replaces or deletes (PUT, DELETE), changes (PATCH). */
const BY_METHOD: Record<string, TaskAnnotations> = {
  GET: READS,
  POST: { read_only: false, destructive: false, idempotent: false },
  PUT: { read_only: false, destructive: true, idempotent: true },
  PATCH: { read_only: false, destructive: true, idempotent: false },
  DELETE: { read_only: false, destructive: true, idempotent: true },
};

/** What a kind implies: data and utility tasks read (or compute); an action may change or delete; an account task as its method does. */
function implied(kind: TaskKind, method: string | undefined): TaskAnnotations {
  if (kind === 'data' || kind === 'utility') return READS;
  if (kind === 'action') return { read_only: false, destructive: true, idempotent: false };
  return BY_METHOD[method ?? 'GET'] ?? READS;
}

/**
 * A task's annotations: what its kind implies, with what the catalog declares on top. A task declared
 * read-only neither destroys nor changes anything by running again, unless the catalog says otherwise (a
 * catalog saying it is both read-only and destructive is refused when it loads).
 */
export function taskAnnotations(kind: TaskKind, method: string | undefined, declared: Partial<TaskAnnotations> = {}): TaskAnnotations {
  const base = declared.read_only ? READS : implied(kind, method);
  return { ...base, ...declared };
}
