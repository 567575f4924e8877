import type { Command } from 'commander';
import { renameOrganization } from '../../../domain/organizations.js';
import { withGateway } from '../../context.js';
import { print } from '../../output.js';

export async function run(name: string, options: { displayName: string; json?: boolean }, command: Command): Promise<void> {
  const org = await withGateway(command, (gateway) => renameOrganization(gateway, name, options.displayName));
  print(command, !!options.json, org, () => `organization ${org.name} is now shown as "${org.display_name}"`);
}
