import { Command } from 'commander';
import { DELIVERIES_SHOWN } from '../../../domain/webhooks/limits.js';
import { orgOption } from '../../options.js';
import { load } from '../../invocation.js';

export const webhooks = () =>
  new Command('webhooks')
    .description('manage the webhooks that receive connection events (docs/webhooks.md)')
    .addCommand(
      new Command('register')
        .description('register a webhook URL (HTTPS, public address); its signing secret is shown only this once')
        .argument('<url>', 'where events are POSTed')
        .addOption(orgOption())
        .option('--json', 'print the WebhookCreated record {id, url, created_at, secret}')
        .action(load(() => import('./register.js'))),
    )
    .addCommand(
      new Command('list')
        .description('list registered webhooks (never their secret), newest first')
        .addOption(orgOption())
        .option('--json', 'print {webhooks}')
        .action(load(() => import('./list.js'))),
    )
    .addCommand(
      new Command('delete')
        .description('delete a webhook; its pending deliveries are not sent')
        .argument('<id>', 'webhook id')
        .addOption(orgOption())
        .option('--json', 'print the deleted Webhook record {id, url, created_at}')
        .action(load(() => import('./delete.js'))),
    )
    .addCommand(
      new Command('deliveries')
        .description(`show a webhook's latest ${DELIVERIES_SHOWN} deliveries, newest first`)
        .argument('<id>', 'webhook id')
        .addOption(orgOption())
        .option('--json', 'print {deliveries}')
        .action(load(() => import('./deliveries.js'))),
    );
