import type { Command } from 'commander';
import { getRedirectAllowlist } from '../../../domain/redirect-uris.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { printAllowlist } from './show.js';

export async function run(options: CommonOptions, command: Command): Promise<void> {
  printAllowlist(command, !!options.json, await withOrganization(command, options, (gateway, org) => getRedirectAllowlist(gateway, org.id)));
}
