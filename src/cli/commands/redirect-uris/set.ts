import { Command } from 'commander';
import { redirectAllowlist } from '../../../domain/contracts/redirect-uris.js';
import { setRedirectAllowlist } from '../../../domain/redirect-uris.js';
import { checkInput } from '../../arguments.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { printAllowlist } from './show.js';

export const set = new Command('set')
  .description('replace the whole allowlist (no URI clears it); one bad URI rejects all of them')
  .argument('[uris...]', 'https URLs without query or fragment (plain http only for localhost and 127.0.0.1)')
  .addOption(orgOption())
  .option('--json', 'print {redirect_uris}')
  .action(
    action(async (uris: string[], options: CommonOptions, command: Command) => {
      const { redirect_uris } = checkInput(command, redirectAllowlist, { redirect_uris: uris }, { redirect_uris: 'uris...' });
      printAllowlist(!!options.json, await withOrganization(command, options, (gateway, org) => setRedirectAllowlist(gateway, org.id, redirect_uris)));
    }),
  );
