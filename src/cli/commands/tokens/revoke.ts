import { Command } from 'commander';
import { fields } from '../../../domain/contracts/fields.js';
import { revokeUserToken } from '../../../domain/tokens.js';
import { checkInput } from '../../arguments.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

export const revoke = new Command('revoke')
  .description('revoke a principal-bound token; it stops working at once')
  .argument('<id>', 'token id')
  .addOption(orgOption())
  .option('--json', 'print {id, revoked}')
  .action(
    action(async (id: string, options: CommonOptions, command: Command) => {
      checkInput(command, fields.idParams(), { id });
      await withOrganization(command, options, (gateway, org) => revokeUserToken(gateway, org.id, id));
      print(!!options.json, { id, revoked: true }, () => `revoked token ${id}`);
    }),
  );
