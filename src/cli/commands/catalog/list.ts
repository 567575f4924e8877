import { Command, Option } from 'commander';
import { loadCatalog } from '../../../domain/catalog/load.js';
import { presentTaskSummary } from '../../../domain/catalog/present.js';
import { listTasks } from '../../../domain/catalog/query.js';
import type { Task, TaskKind } from '../../../domain/catalog/types.js';
import { configFor } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

interface ListOptions {
  json?: boolean;
  provider?: string;
  kind?: TaskKind;
}

/** Every task of the loaded catalog (built-in plus `catalog.files`), following the pages of the list. */
function allTasks(catalog: ReturnType<typeof loadCatalog>, options: ListOptions): Task[] {
  const tasks: Task[] = [];
  let cursor: string | undefined;
  do {
    const page = listTasks(catalog, { provider: options.provider, kind: options.kind }, cursor);
    tasks.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return tasks;
}

export const list = new Command('list')
  .description('list the tasks of the catalog this configuration loads (built-in plus catalog.files)')
  .option('--provider <slug>', 'only tasks of this provider')
  .addOption(new Option('--kind <kind>', 'only tasks of this kind').choices(['data', 'action', 'account', 'utility']))
  .option('--json', 'print {version, tasks}')
  .action(
    action(async (options: ListOptions, command: Command) => {
      const catalog = loadCatalog(configFor(command));
      const tasks = allTasks(catalog, options);
      print(!!options.json, { version: catalog.version, tasks: tasks.map(presentTaskSummary) }, () =>
        tasks.map((task) => ({
          id: task.id,
          kind: task.kind,
          capability: task.capability,
          price_usd: task.price_usd,
          status: task.status,
          title: task.title,
        })),
      );
    }),
  );
