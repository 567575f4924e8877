import { Command } from 'commander';
import { deleteWebhook } from '../../../domain/webhooks/webhooks.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

export const deleteCommand = new Command('delete')
  .description('delete a webhook; its pending deliveries are not sent')
  .argument('<id>', 'webhook id')
  .addOption(orgOption())
  .option('--json', 'print the deleted Webhook record {id, url, created_at}')
  .action(
    action(async (id: string, options: CommonOptions, command: Command) => {
      const webhook = await withOrganization(command, options, (gateway, org) => deleteWebhook(gateway.db, org.id, id));
      print(!!options.json, webhook, () => `deleted webhook ${webhook.id} (${webhook.url})`);
    }),
  );
