import { Command, InvalidArgumentError } from 'commander';
import { CLI_ISSUER, TOKEN_LIFETIME } from '../../../domain/tokens.js';
import { orgOption } from '../../options.js';
import { load } from '../../invocation.js';

function seconds(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number of seconds');
  return Number(value);
}

export const tokens = () =>
  new Command('tokens')
    .description('manage principal-bound tokens (gw_user_...) that act only as one principal')
    .addCommand(
      new Command('issue')
        .description(`issue a principal-bound token; it is shown only this once (issued_by "${CLI_ISSUER}")`)
        .requiredOption('--principal <principal>', 'who the token acts as: organization or user:<id>')
        .option('--expires-in <seconds>', `lifetime, ${TOKEN_LIFETIME.min}-${TOKEN_LIFETIME.max} seconds`, seconds, TOKEN_LIFETIME.default)
        .addOption(orgOption())
        .option('--json', 'print the UserBoundToken record {id, token, principal, expires_at}')
        .action(load(() => import('./issue.js'))),
    )
    .addCommand(
      new Command('list')
        .description('list live principal-bound tokens (never their secret), newest first')
        .addOption(orgOption())
        .option('--json', 'print {tokens, next_cursor}: every page is fetched, so next_cursor is always null')
        .action(load(() => import('./list.js'))),
    )
    .addCommand(
      new Command('revoke')
        .description('revoke a principal-bound token; it stops working at once')
        .argument('<id>', 'token id')
        .addOption(orgOption())
        .option('--json', 'print {id, revoked}')
        .action(load(() => import('./revoke.js'))),
    );
