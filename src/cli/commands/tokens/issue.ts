import { Command, InvalidArgumentError } from 'commander';
import { newUserBoundToken } from '../../../domain/contracts/tokens.js';
import { CLI_ISSUER, issueUserToken, TOKEN_LIFETIME } from '../../../domain/tokens.js';
import { checkInput } from '../../arguments.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

function seconds(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number of seconds');
  return Number(value);
}

export const issue = new Command('issue')
  .description(`issue a principal-bound token; it is shown only this once (issued_by "${CLI_ISSUER}")`)
  .requiredOption('--principal <principal>', 'who the token acts as: organization or user:<id>')
  .option('--expires-in <seconds>', `lifetime, ${TOKEN_LIFETIME.min}-${TOKEN_LIFETIME.max} seconds`, seconds, TOKEN_LIFETIME.default)
  .addOption(orgOption())
  .option('--json', 'print the UserBoundToken record {id, token, principal, expires_at}')
  .action(
    action(async (options: CommonOptions & { principal: string; expiresIn: number }, command: Command) => {
      const request = checkInput(command, newUserBoundToken, { principal: options.principal, expires_in: options.expiresIn });
      const token = await withOrganization(command, options, (gateway, org) => issueUserToken(gateway, org.id, request, CLI_ISSUER));
      print(!!options.json, token, () =>
        `issued token ${token.id} for ${token.principal}, valid until ${token.expires_at}; it is not shown again:\n${token.token}`,
      );
    }),
  );
