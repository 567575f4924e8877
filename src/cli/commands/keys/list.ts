import type { Command } from 'commander';
import { listApiKeys } from '../../../domain/api-keys.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(options: CommonOptions, command: Command): Promise<void> {
  const keys = await withOrganization(command, options, (gateway, org) => listApiKeys(gateway, org.id));
  print(command, !!options.json, { keys }, () => keys);
}
