import { Command } from 'commander';
import { getRedirectAllowlist } from '../../../domain/redirect-uris.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { printAllowlist } from './show.js';

export const list = new Command('list')
  .description('show the connect callbacks the organization allows')
  .addOption(orgOption())
  .option('--json', 'print {redirect_uris}')
  .action(
    action(async (options: CommonOptions, command: Command) => {
      printAllowlist(!!options.json, await withOrganization(command, options, (gateway, org) => getRedirectAllowlist(gateway, org.id)));
    }),
  );
