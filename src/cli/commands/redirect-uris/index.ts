import { Command } from 'commander';
import { add } from './add.js';
import { list } from './list.js';
import { remove } from './remove.js';
import { set } from './set.js';

export const redirectUris = new Command('redirect-uris')
  .description("manage the organization's connect callback allowlist")
  .addCommand(list)
  .addCommand(set)
  .addCommand(add)
  .addCommand(remove);
