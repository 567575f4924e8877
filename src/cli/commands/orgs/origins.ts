import type { Command } from 'commander';
import { presentOrganization, resolveOrganization, setTrustedOrigins } from '../../../domain/organizations.js';
import { withGateway } from '../../context.js';
import { print } from '../../output.js';

export async function run(orgName: string, given: string[], options: { json?: boolean; clear?: boolean }, command: Command): Promise<void> {
  const org = await withGateway(command, async (gateway) =>
    given.length || options.clear ? setTrustedOrigins(gateway, orgName, given) : presentOrganization(await resolveOrganization(gateway, orgName)),
  );
  print(command, !!options.json, org, () => (org.trusted_origins.length ? org.trusted_origins.join('\n') : '(no trusted origins)'));
}
