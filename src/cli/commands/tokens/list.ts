import type { Command } from 'commander';
import { listHeldTokens, type HeldUserBoundToken, type HeldUserBoundTokens } from '../../../domain/tokens.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(options: CommonOptions, command: Command): Promise<void> {
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
  print(command, !!options.json, held, () => tokens);
}
