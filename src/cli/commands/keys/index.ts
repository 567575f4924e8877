import { Command, Option } from 'commander';
import { roles } from '../../../domain/api-keys.js';
import { orgOption } from '../../options.js';
import { load } from '../../invocation.js';

export const keys = () =>
  new Command('keys')
    .description('manage organization API keys')
    .addCommand(
      new Command('create')
        .description('create an API key; the key is shown only this once')
        .addOption(new Option('--role <role>', 'key role').choices(roles).makeOptionMandatory())
        .option('--name <name>', 'a label for the key')
        .addOption(orgOption())
        .option('--json', 'print {id, key, role}')
        .action(load(() => import('./create.js'))),
    )
    .addCommand(
      new Command('list')
        .description('list API keys (never their secret)')
        .addOption(orgOption())
        .option('--json', 'print {keys}')
        .action(load(() => import('./list.js'))),
    )
    .addCommand(
      new Command('revoke')
        .description('revoke an API key; it stops working at once')
        .argument('<id>', 'key id')
        .addOption(orgOption())
        .option('--json', 'print {id, revoked}')
        .action(load(() => import('./revoke.js'))),
    );
