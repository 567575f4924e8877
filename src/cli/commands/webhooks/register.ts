import { Command } from 'commander';
import { newWebhook } from '../../../domain/contracts/webhooks.js';
import { createWebhook } from '../../../domain/webhooks/webhooks.js';
import { checkInput } from '../../arguments.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

export const register = new Command('register')
  .description('register a webhook URL (HTTPS, public address); its signing secret is shown only this once')
  .argument('<url>', 'where events are POSTed')
  .addOption(orgOption())
  .option('--json', 'print the WebhookCreated record {id, url, created_at, secret}')
  .action(
    action(async (url: string, options: CommonOptions, command: Command) => {
      const request = checkInput(command, newWebhook, { url });
      const webhook = await withOrganization(command, options, (gateway, org) => createWebhook(gateway, org.id, request.url));
      print(!!options.json, webhook, () =>
        `registered webhook ${webhook.id} for ${webhook.url}; its signing secret is not shown again:\n${webhook.secret}`,
      );
    }),
  );
