import type { Command } from 'commander';
import { revokeApiKey } from '../../../domain/api-keys.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { notFoundAsFailure } from '../../errors.js';
import { print } from '../../output.js';

export async function run(id: string, options: CommonOptions, command: Command): Promise<void> {
  // Only the key's absence is a failure of the work; an organization left to choose (--org) stays a usage error.
  await withOrganization(command, options, (gateway, org) => revokeApiKey(gateway, org.id, id).catch(notFoundAsFailure));
  print(command, !!options.json, { id, revoked: true }, () => `revoked key ${id}`);
}
