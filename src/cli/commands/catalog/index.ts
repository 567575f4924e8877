import { Command } from 'commander';
import { importCommand } from './import.js';
import { list } from './list.js';
import { validate } from './validate.js';

export const catalog = new Command('catalog')
  .description('inspect the task catalog, check catalog files, and import OpenAPI descriptions')
  .addCommand(list)
  .addCommand(validate)
  .addCommand(importCommand);
