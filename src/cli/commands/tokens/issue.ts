import type { Command } from 'commander';
import { newUserBoundToken } from '../../../domain/contracts/tokens.js';
import { CLI_ISSUER, issueUserToken } from '../../../domain/tokens.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(options: CommonOptions & { principal: string; expiresIn: number }, command: Command): Promise<void> {
  const request = checkInput(command, newUserBoundToken, { principal: options.principal, expires_in: options.expiresIn });
  const token = await withOrganization(command, options, (gateway, org) => issueUserToken(gateway, org.id, request, CLI_ISSUER));
  print(command, !!options.json, token, () => `issued token ${token.id} for ${token.principal}, valid until ${token.expires_at}; it is not shown again:\n${token.token}`);
}
