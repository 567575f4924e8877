import type { Command } from 'commander';
import { redirectAllowlist } from '../../../domain/contracts/redirect-uris.js';
import { setRedirectAllowlist } from '../../../domain/redirect-uris.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { printAllowlist } from './show.js';

export async function run(uris: string[], options: CommonOptions, command: Command): Promise<void> {
  const { redirect_uris } = checkInput(command, redirectAllowlist, { redirect_uris: uris }, { redirect_uris: 'uris...' });
  printAllowlist(command, !!options.json, await withOrganization(command, options, (gateway, org) => setRedirectAllowlist(gateway, org.id, redirect_uris)));
}
