import type { Command } from 'commander';
import { createApiKey } from '../../../domain/api-keys.js';
import type { Role } from '../../../domain/api-keys.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(options: CommonOptions & { role: Role; name?: string }, command: Command): Promise<void> {
  const key = await withOrganization(command, options, (gateway, org) => createApiKey(gateway, org.id, options.role, options.name));
  print(command, !!options.json, { id: key.id, key: key.key, role: key.role }, () =>
    `created ${key.role} key ${key.id}; store it now, it is not shown again:\n${key.key}`,
  );
}
