import { Command } from 'commander';
import { TASK_KINDS } from '../../../domain/catalog/types.js';
import { load } from '../../invocation.js';

/** Repeatable options (--include, --exclude) collect their values in order. */
const collect = (value: string, previous: string[]) => [...previous, value];

export const catalog = () =>
  new Command('catalog')
    .description('inspect the task catalog, check catalog files, and import OpenAPI descriptions')
    .addCommand(
      new Command('list')
        .description('list the tasks of the catalog this configuration loads (built-in plus catalog.files)')
        .option('--provider <slug>', 'only tasks of this provider')
        .option('--kind <kind>', `only tasks of this kind: ${TASK_KINDS.join(', ')}`)
        .option('--json', 'print {version, tasks}')
        .action(load(() => import('./list.js'))),
    )
    .addCommand(
      new Command('validate')
        .description('check a catalog file (JSON or YAML) against the format and the built-in catalog')
        .argument('<file>', 'catalog file to check')
        .option('--json', 'print {valid, file, ...} instead of text')
        .action(load(() => import('./validate.js'))),
    )
    .addCommand(
      new Command('import')
        .description('turn an OpenAPI 3.x or Swagger 2.0 description (JSON or YAML; - for stdin) into a catalog file')
        .argument('<file>', 'the description, or - to read it from standard input')
        .requiredOption('--provider <slug>', 'the provider slug, first part of every task id')
        .option('--name <name>', "the provider's display name (default: the description's title)")
        .option('--base-url <url>', "where the provider lives (default: the description's first server)")
        .option('--include <pattern>', 'keep operations matching an operationId, tag or "METHOD /path" (* is a wildcard; repeatable)', collect, [])
        .option('--exclude <pattern>', 'leave out operations matching the same patterns (repeatable; wins over --include)', collect, [])
        .option('--output <file>', 'write the catalog file here, as JSON when it ends in .json (default: YAML on standard output)')
        .option('--dry-run', 'write nothing; print each operation kept or skipped, and why')
        .action(load(() => import('./import.js'))),
    );
