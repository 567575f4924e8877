import type { Command } from 'commander';
import { revokeApiKey } from '../../../domain/api-keys.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { notFoundAsFailure } from '../../errors.js';
import { print } from '../../output.js';

export async function run(id: string, options: CommonOptions, command: Command): Promise<void> {
  await withOrganization(command, options, (gateway, org) => revokeApiKey(gateway, org.id, id)).catch(notFoundAsFailure);
  print(command, !!options.json, { id, revoked: true }, () => `revoked key ${id}`);
}
