import type { Command } from 'commander';
import { newWebhook } from '../../../domain/contracts/webhooks.js';
import { createWebhook } from '../../../domain/webhooks/webhooks.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(url: string, options: CommonOptions, command: Command): Promise<void> {
  const request = checkInput(command, newWebhook, { url });
  const webhook = await withOrganization(command, options, (gateway, org) => createWebhook(gateway, org.id, request.url));
  print(command, !!options.json, webhook, () => `registered webhook ${webhook.id} for ${webhook.url}; its signing secret is not shown again:\n${webhook.secret}`);
}
