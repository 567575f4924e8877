import type { Command } from 'commander';
import { createOrganization, OrganizationExists } from '../../../domain/organizations.js';
import { CommandFailure } from '../../errors.js';
import { withGateway } from '../../context.js';
import { print } from '../../output.js';

export async function run(name: string, options: { displayName?: string; json?: boolean }, command: Command): Promise<void> {
  const org = await withGateway(command, (gateway) => createOrganization(gateway, name, options.displayName)).catch((error: unknown) => {
    throw error instanceof OrganizationExists ? new CommandFailure(error.message) : error;
  });
  print(command, !!options.json, { id: org.id, name: org.name }, () => `created organization ${org.name} (${org.id})`);
}
