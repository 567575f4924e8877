import { Command } from 'commander';
import { createOrganization, listOrganizations, setOrganizationStatus, setTrustedOrigins, resolveOrganization, presentOrganization } from '../../../domain/organizations.js';
import { withGateway } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

const row = (org: { id: string; name: string; status: string; trusted_origins: string[] }) => ({
  id: org.id,
  name: org.name,
  status: org.status,
  origins: org.trusted_origins,
});

const create = new Command('create')
  .description('create an organization')
  .argument('<name>', 'organization name (letters, digits, . _ -)')
  .option('--json', 'print {id, name}')
  .action(
    action(async (name: string, options: { json?: boolean }, command: Command) => {
      const org = await withGateway(command, (gateway) => createOrganization(gateway, name));
      print(!!options.json, { id: org.id, name: org.name }, () => `created organization ${org.name} (${org.id})`);
    }),
  );

const list = new Command('list')
  .description('list organizations')
  .option('--json', 'print {organizations}')
  .action(
    action(async (options: { json?: boolean }, command: Command) => {
      const orgs = await withGateway(command, (gateway) => listOrganizations(gateway));
      print(!!options.json, { organizations: orgs }, () => orgs.map(row));
    }),
  );

function statusCommand(name: 'suspend' | 'resume', status: 'suspended' | 'active', description: string) {
  return new Command(name)
    .description(description)
    .argument('<name>', 'organization name')
    .option('--json', 'print the organization')
    .action(
      action(async (orgName: string, options: { json?: boolean }, command: Command) => {
        const org = await withGateway(command, (gateway) => setOrganizationStatus(gateway, orgName, status));
        print(!!options.json, org, () => `organization ${org.name} is ${org.status}`);
      }),
    );
}

const origins = new Command('origins')
  .description('show, or with ORIGIN arguments replace, the origins trusted to call from a browser')
  .argument('<name>', 'organization name')
  .argument('[origins...]', 'origins such as https://app.example.com; none lists the current ones')
  .option('--clear', 'trust no origin')
  .option('--json', 'print the organization')
  .action(
    action(async (orgName: string, given: string[], options: { json?: boolean; clear?: boolean }, command: Command) => {
      const org = await withGateway(command, async (gateway) =>
        given.length || options.clear
          ? setTrustedOrigins(gateway, orgName, given)
          : presentOrganization(await resolveOrganization(gateway, orgName)),
      );
      print(!!options.json, org, () => (org.trusted_origins.length ? org.trusted_origins.join('\n') : '(no trusted origins)'));
    }),
  );

export const orgs = new Command('orgs')
  .description('manage organizations')
  .addCommand(create)
  .addCommand(list)
  .addCommand(statusCommand('suspend', 'suspended', 'suspend an organization: its keys answer 403 no_active_organization'))
  .addCommand(statusCommand('resume', 'active', 'resume a suspended organization'))
  .addCommand(origins);
