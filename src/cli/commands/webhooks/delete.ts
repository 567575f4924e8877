import { Command } from 'commander';
import { fields } from '../../../domain/contracts/fields.js';
import { deleteWebhook } from '../../../domain/webhooks/webhooks.js';
import { checkInput } from '../../arguments.js';
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
      checkInput(command, fields.idParams(), { id });
      const webhook = await withOrganization(command, options, (gateway, org) => deleteWebhook(gateway, org.id, id));
      print(!!options.json, webhook, () => `deleted webhook ${webhook.id} (${webhook.url})`);
    }),
  );
