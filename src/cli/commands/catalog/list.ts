import type { Command } from 'commander';
import { loadCatalog } from '../../../domain/catalog/load.js';
import { presentTaskSummary } from '../../../domain/catalog/present.js';
import { listTasks, type TaskFilters } from '../../../domain/catalog/query.js';
import type { Task } from '../../../domain/catalog/types.js';
import { taskQuery } from '../../../domain/contracts/tasks.js';
import { checkInput } from '../../arguments.js';
import { configFor } from '../../context.js';
import { print } from '../../output.js';

interface ListOptions {
  json?: boolean;
  provider?: string;
  kind?: string;
}

/** Every task of the loaded catalog (built-in plus `catalog.files`), following the pages of the list. */
function allTasks(catalog: ReturnType<typeof loadCatalog>, filters: TaskFilters): Task[] {
  const tasks: Task[] = [];
  let cursor: string | undefined;
  do {
    const page = listTasks(catalog, filters, cursor);
    tasks.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return tasks;
}

export async function run(options: ListOptions, command: Command): Promise<void> {
  const filters = checkInput(command, taskQuery, { provider: options.provider, kind: options.kind });
  const catalog = loadCatalog(configFor(command));
  const tasks = allTasks(catalog, filters);
  print(command, !!options.json, { version: catalog.version, tasks: tasks.map(presentTaskSummary) }, () =>
    tasks.map((task) => ({
      id: task.id,
      kind: task.kind,
      capability: task.capability,
      price_usd: task.price_usd,
      status: task.status,
      title: task.title,
    })),
  );
}
