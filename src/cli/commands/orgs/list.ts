import type { Command } from 'commander';
import { listOrganizations } from '../../../domain/organizations.js';
import { withGateway } from '../../context.js';
import { print } from '../../output.js';

export async function run(options: { json?: boolean }, command: Command): Promise<void> {
  const orgs = await withGateway(command, (gateway) => listOrganizations(gateway));
  print(command, !!options.json, { organizations: orgs }, () =>
    orgs.map((org) => ({ id: org.id, name: org.name, status: org.status, origins: org.trusted_origins })),
  );
}
