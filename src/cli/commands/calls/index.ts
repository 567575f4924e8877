import { Command } from 'commander';
import { list } from './list.js';
import { tail } from './tail.js';

export const calls = new Command('calls')
  .description('the audit trail of runs: list calls, or follow them live (docs/terminal-ui.md)')
  .addCommand(list)
  .addCommand(tail);
