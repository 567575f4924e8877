import { Command } from 'commander';
import { fields } from '../../../domain/contracts/fields.js';
import { DELIVERIES_SHOWN, listDeliveries } from '../../../domain/webhooks/webhooks.js';
import { checkInput } from '../../arguments.js';
import { orgOption, withOrganization, type CommonOptions } from '../../context.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

export const deliveries = new Command('deliveries')
  .description(`show a webhook's latest ${DELIVERIES_SHOWN} deliveries, newest first`)
  .argument('<id>', 'webhook id')
  .addOption(orgOption())
  .option('--json', 'print {deliveries}')
  .action(
    action(async (id: string, options: CommonOptions, command: Command) => {
      checkInput(command, fields.idParams(), { id });
      const found = await withOrganization(command, options, (gateway, org) => listDeliveries(gateway, org.id, id));
      print(!!options.json, { deliveries: found }, () =>
        found.map((d) => ({ id: d.id, event: d.event, state: d.state, attempts: d.attempts, last_status: d.last_status, last_error: d.last_error, updated_at: d.updated_at })),
      );
    }),
  );
