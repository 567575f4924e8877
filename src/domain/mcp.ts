import type { Catalog } from './catalog/types.js';

/** The MCP endpoint's path, and the tasks a client may pin to it as tools of their own (`?tasks=`). */

export const MCP_PATH = '/v1/mcp';

/** How many tasks `?tasks=` may pin as tools of their own. */
export const MAX_PINNED_TASKS = 20;

/** `id1, id2,id1` -> [id1, id2, id1]: every entry as given (trimmed), so empty and repeated ones can be refused. */
export function pinnedTaskIds(list: string): string[] {
  return list.split(',').map((id) => id.trim());
}

/**
 * Why these ids cannot be pinned, one reason each: too many (counted as given), an empty entry, an id named
 * twice, not in the catalog, or not active. Empty when they can.
 */
export function pinnedTaskProblems(catalog: Catalog, ids: string[]): string[] {
  if (ids.length > MAX_PINNED_TASKS) return [`${ids.length} task ids given; at most ${MAX_PINNED_TASKS} can be pinned`];
  const seen = new Set<string>();
  return ids.flatMap((id) => {
    if (!id) return ['an empty task id (a comma with no id beside it)'];
    if (seen.has(id)) return [`task ${id} is named more than once`];
    seen.add(id);
    const task = catalog.tasks.get(id);
    if (!task) return [`no task ${id}`];
    return task.status === 'active' ? [] : [`task ${id} is ${task.status}`];
  });
}

/** The endpoint's address, with the pinned tasks as `?tasks=` when there are any. */
export function mcpUrl(publicUrl: string, taskIds: string[]): string {
  return `${publicUrl}${MCP_PATH}${taskIds.length ? `?tasks=${taskIds.map(encodeURIComponent).join(',')}` : ''}`;
}
