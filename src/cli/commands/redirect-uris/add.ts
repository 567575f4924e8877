import { Command } from 'commander';
import { redirectAllowlist } from '../../../domain/contracts/redirect-uris.js';
import { addRedirectUri } from '../../../domain/redirect-uris.js';
import { checkInput } from '../../arguments.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { printAllowlist } from './show.js';

export const add = new Command('add')
  .description('allow one more connect callback (already allowed: no change)')
  .argument('<uri>', 'https URL without query or fragment (plain http only for localhost and 127.0.0.1)')
  .addOption(orgOption())
  .option('--json', 'print {redirect_uris}')
  .action(
    action(async (uri: string, options: CommonOptions, command: Command) => {
      checkInput(command, redirectAllowlist, { redirect_uris: [uri] }, { redirect_uris: 'uri' });
      printAllowlist(!!options.json, await withOrganization(command, options, (gateway, org) => addRedirectUri(gateway, org.id, uri)));
    }),
  );
