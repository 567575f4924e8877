import type { Command } from 'commander';
import { fields } from '../../../domain/contracts/fields.js';
import { listDeliveries } from '../../../domain/webhooks/webhooks.js';
import { checkInput } from '../../arguments.js';
import { withOrganization, type CommonOptions } from '../../context.js';
import { print } from '../../output.js';

export async function run(id: string, options: CommonOptions, command: Command): Promise<void> {
  checkInput(command, fields.idParams(), { id });
  const found = await withOrganization(command, options, (gateway, org) => listDeliveries(gateway, org.id, id));
  print(command, !!options.json, { deliveries: found }, () =>
    found.map((d) => ({ id: d.id, event: d.event, state: d.state, attempts: d.attempts, last_status: d.last_status, last_error: d.last_error, updated_at: d.updated_at })),
  );
}
