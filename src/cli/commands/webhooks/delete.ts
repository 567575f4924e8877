import type { Command } from 'commander';
import { fields } from '../../../domain/contracts/fields.js';
import { deleteWebhook } from '../../../domain/webhooks/webhooks.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(id: string, options: CommonOptions, command: Command): Promise<void> {
  checkInput(command, fields.idParams(), { id });
  const webhook = await withOrganization(command, options, (gateway, org) => deleteWebhook(gateway, org.id, id));
  print(command, !!options.json, webhook, () => `deleted webhook ${webhook.id} (${webhook.url})`);
}
