import { Command } from 'commander';
import { listWebhooks } from '../../../domain/webhooks/webhooks.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

export const list = new Command('list')
  .description('list registered webhooks (never their secret), newest first')
  .addOption(orgOption())
  .option('--json', 'print {webhooks}')
  .action(
    action(async (options: CommonOptions, command: Command) => {
      const webhooks = await withOrganization(command, options, (gateway, org) => listWebhooks(gateway, org.id));
      print(!!options.json, { webhooks }, () => webhooks);
    }),
  );
