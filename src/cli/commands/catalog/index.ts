import { Command } from 'commander';
import { TASK_KINDS } from '../../../domain/catalog/types.js';
import { load } from '../../invocation.js';

export const catalog = () =>
  new Command('catalog')
    .description('inspect the task catalog and check catalog files')
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
    );
