import { GatewayError } from '../errors.js';
import { decodeCursor, PAGE_SIZE, toPage, type Page } from '../paging.js';
import type { Catalog, Provider, Task, TaskKind } from './types.js';

export interface TaskFilters {
  provider?: string;
  capability?: string;
  kind?: TaskKind;
  /** Every word must appear (case-insensitively) in the id, title, description, keywords or capability. */
  q?: string;
}

const sortedTasks = new WeakMap<Catalog, Task[]>();
const searchText = new WeakMap<Task, string>();

/** Tasks in id order: a stable order for cursor pages over a catalog that does not change while serving. */
function tasksById(catalog: Catalog): Task[] {
  let tasks = sortedTasks.get(catalog);
  if (!tasks) {
    tasks = [...catalog.tasks.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    sortedTasks.set(catalog, tasks);
  }
  return tasks;
}

function textOf(task: Task): string {
  let text = searchText.get(task);
  if (text === undefined) {
    text = [task.id, task.title, task.description, task.capability, ...task.keywords].join('\n').toLowerCase();
    searchText.set(task, text);
  }
  return text;
}

/** GET /v1/tasks: retired and broken tasks are listed too, with their status. */
export function listTasks(catalog: Catalog, filters: TaskFilters, cursor?: string): Page<Task> {
  const after = decodeCursor(cursor);
  const words = (filters.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matches = tasksById(catalog).filter(
    (task) =>
      (after === undefined || task.id > after) &&
      (filters.provider === undefined || task.provider === filters.provider) &&
      (filters.capability === undefined || task.capability === filters.capability) &&
      (filters.kind === undefined || task.kind === filters.kind) &&
      words.every((word) => textOf(task).includes(word)),
  );
  return toPage(matches.slice(0, PAGE_SIZE + 1), (task) => task.id);
}

/** A task that may run: 404 task_not_found when unknown, 410 task_retired or task_broken when it may not. */
export function findActiveTask(catalog: Catalog, id: string): Task {
  const task = catalog.tasks.get(id);
  if (!task) throw new GatewayError('task_not_found', `no task ${id}; find one with POST /v1/discover or GET /v1/tasks`);
  if (task.status === 'retired') throw new GatewayError('task_retired', `task ${id} is retired; look for another task of capability ${task.capability}`);
  if (task.status === 'broken') throw new GatewayError('task_broken', `task ${id} is marked broken; look for another task of capability ${task.capability}`);
  return task;
}

export function findCapability(catalog: Catalog, id: string): { id: string; tasks: Task[] } {
  const tasks = catalog.tasksForCapability(id);
  if (!tasks.length) throw new GatewayError('capability_not_found', `no capability ${id}`);
  return { id, tasks };
}

export function findProvider(catalog: Catalog, slug: string): Provider {
  const provider = catalog.providers.get(slug);
  if (!provider) throw new GatewayError('provider_not_found', `no provider ${slug}`);
  return provider;
}

/** Providers in slug order. */
export function listProviders(catalog: Catalog): Provider[] {
  return [...catalog.providers.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1));
}

export function taskCount(catalog: Catalog, slug: string): number {
  let count = 0;
  for (const task of catalog.tasks.values()) if (task.provider === slug) count++;
  return count;
}
