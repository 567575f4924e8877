import { Command } from 'commander';
import { listHeldTokens, type HeldUserBoundToken, type HeldUserBoundTokens } from '../../../domain/tokens.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

export const list = new Command('list')
  .description('list live principal-bound tokens (never their secret), newest first')
  .addOption(orgOption())
  .option('--json', 'print {tokens, next_cursor}: every page is fetched, so next_cursor is always null')
  .action(
    action(async (options: CommonOptions, command: Command) => {
      const tokens = await withOrganization(command, options, async (gateway, org) => {
        const all: HeldUserBoundToken[] = [];
        let cursor: string | undefined;
        do {
          const page = await listHeldTokens(gateway, org.id, cursor);
          all.push(...page.tokens);
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        return all;
      });
      const held: HeldUserBoundTokens = { tokens, next_cursor: null };
      print(!!options.json, held, () => tokens);
    }),
  );
