import { Command } from 'commander';
import { redirectAllowlist } from '../../../domain/contracts/redirect-uris.js';
import { removeRedirectUri } from '../../../domain/redirect-uris.js';
import { checkInput } from '../../arguments.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action, notFoundAsFailure } from '../../errors.js';
import { printAllowlist } from './show.js';

export const remove = new Command('remove')
  .description('stop allowing a connect callback')
  .argument('<uri>', 'an allowlisted URI (compared in canonical form)')
  .addOption(orgOption())
  .option('--json', 'print {redirect_uris}')
  .action(
    action(async (uri: string, options: CommonOptions, command: Command) => {
      checkInput(command, redirectAllowlist, { redirect_uris: [uri] }, { redirect_uris: 'uri' });
      const allowlist = await withOrganization(command, options, (gateway, org) => removeRedirectUri(gateway, org.id, uri)).catch(notFoundAsFailure);
      printAllowlist(!!options.json, allowlist);
    }),
  );
