import type { Command } from 'commander';
import { listWebhooks } from '../../../domain/webhooks/webhooks.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(options: CommonOptions, command: Command): Promise<void> {
  const webhooks = await withOrganization(command, options, (gateway, org) => listWebhooks(gateway, org.id));
  print(command, !!options.json, { webhooks }, () => webhooks);
}
