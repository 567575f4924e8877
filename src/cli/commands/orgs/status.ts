import type { Command } from 'commander';
import { setOrganizationStatus } from '../../../domain/organizations.js';
import { withGateway } from '../../context.js';
import { print } from '../../output.js';

/** `orgs suspend` and `orgs resume`. */
export async function run(orgName: string, options: { json?: boolean }, command: Command): Promise<void> {
  const status = command.name() === 'suspend' ? 'suspended' : 'active';
  const org = await withGateway(command, (gateway) => setOrganizationStatus(gateway, orgName, status));
  print(command, !!options.json, org, () => `organization ${org.name} is ${org.status}`);
}
