import { Command } from 'commander';
import { deleteCommand } from './delete.js';
import { deliveries } from './deliveries.js';
import { list } from './list.js';
import { register } from './register.js';

export const webhooks = new Command('webhooks')
  .description('manage the webhooks that receive connection events (docs/webhooks.md)')
  .addCommand(register)
  .addCommand(list)
  .addCommand(deleteCommand)
  .addCommand(deliveries);
