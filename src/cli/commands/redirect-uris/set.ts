import type { Command } from 'commander';
import { redirectAllowlist } from '../../../domain/contracts/redirect-uris.js';
import { setRedirectAllowlist } from '../../../domain/redirect-uris.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { printAllowlist } from './show.js';

/** Emptying the allowlist is said outright (`--clear`): `set` with no URI is a mistake, not a request. */
export async function run(uris: string[], options: CommonOptions & { clear?: boolean }, command: Command): Promise<void> {
  if (!uris.length && !options.clear) command.error('error: name at least one URI, or use --clear to allow none', { exitCode: 2 });
  if (uris.length && options.clear) command.error('error: --clear takes no URI (it allows none)', { exitCode: 2 });
  const { redirect_uris } = checkInput(command, redirectAllowlist, { redirect_uris: uris }, { redirect_uris: 'uris...' });
  printAllowlist(command, !!options.json, await withOrganization(command, options, (gateway, org) => setRedirectAllowlist(gateway, org.id, redirect_uris)));
}
