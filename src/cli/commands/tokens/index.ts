import { Command } from 'commander';
import { issue } from './issue.js';
import { list } from './list.js';
import { revoke } from './revoke.js';

export const tokens = new Command('tokens')
  .description('manage principal-bound tokens (gw_user_...) that act only as one principal')
  .addCommand(issue)
  .addCommand(list)
  .addCommand(revoke);
