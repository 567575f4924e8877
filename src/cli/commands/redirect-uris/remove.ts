import type { Command } from 'commander';
import { redirectAllowlist } from '../../../domain/contracts/redirect-uris.js';
import { removeRedirectUri } from '../../../domain/redirect-uris.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { notFoundAsFailure } from '../../errors.js';
import { printAllowlist } from './show.js';

export async function run(uri: string, options: CommonOptions, command: Command): Promise<void> {
  checkInput(command, redirectAllowlist, { redirect_uris: [uri] }, { redirect_uris: 'uri' });
  const allowlist = await withOrganization(command, options, (gateway, org) => removeRedirectUri(gateway, org.id, uri).catch(notFoundAsFailure));
  printAllowlist(command, !!options.json, allowlist);
}
