import type { Command } from 'commander';
import { fields } from '../../../domain/contracts/fields.js';
import { revokeUserToken } from '../../../domain/tokens.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(id: string, options: CommonOptions, command: Command): Promise<void> {
  checkInput(command, fields.idParams(), { id });
  await withOrganization(command, options, (gateway, org) => revokeUserToken(gateway, org.id, id));
  print(command, !!options.json, { id, revoked: true }, () => `revoked token ${id}`);
}
