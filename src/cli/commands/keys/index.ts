import { Command, Option } from 'commander';
import { createApiKey, listApiKeys, revokeApiKey, roles } from '../../../domain/api-keys.js';
import type { Role } from '../../../domain/api-keys.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action, notFoundAsFailure } from '../../errors.js';
import { print } from '../../output.js';

const create = new Command('create')
  .description('create an API key; the key is shown only this once')
  .addOption(new Option('--role <role>', 'key role').choices(roles).makeOptionMandatory())
  .option('--name <name>', 'a label for the key')
  .addOption(orgOption())
  .option('--json', 'print {id, key, role}')
  .action(
    action(async (options: CommonOptions & { role: Role; name?: string }, command: Command) => {
      const key = await withOrganization(command, options, (gateway, org) => createApiKey(gateway, org.id, options.role, options.name));
      print(!!options.json, { id: key.id, key: key.key, role: key.role }, () =>
        `created ${key.role} key ${key.id}; store it now, it is not shown again:\n${key.key}`,
      );
    }),
  );

const list = new Command('list')
  .description('list API keys (never their secret)')
  .addOption(orgOption())
  .option('--json', 'print {keys}')
  .action(
    action(async (options: CommonOptions, command: Command) => {
      const keys = await withOrganization(command, options, (gateway, org) => listApiKeys(gateway, org.id));
      print(!!options.json, { keys }, () => keys);
    }),
  );

const revoke = new Command('revoke')
  .description('revoke an API key; it stops working at once')
  .argument('<id>', 'key id')
  .addOption(orgOption())
  .option('--json', 'print {id, revoked}')
  .action(
    action(async (id: string, options: CommonOptions, command: Command) => {
      await withOrganization(command, options, (gateway, org) => revokeApiKey(gateway, org.id, id)).catch(notFoundAsFailure);
      print(!!options.json, { id, revoked: true }, () => `revoked key ${id}`);
    }),
  );

export const keys = new Command('keys').description('manage organization API keys').addCommand(create).addCommand(list).addCommand(revoke);
