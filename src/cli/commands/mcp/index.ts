import { Command, InvalidArgumentError, Option } from 'commander';
import { MAX_PINNED_TASKS, pinnedTaskIds } from '../../../domain/mcp.js';
import { load } from '../../invocation.js';

function taskList(value: string): string[] {
  const ids = pinnedTaskIds(value);
  if (!ids.length || ids.length > MAX_PINNED_TASKS) throw new InvalidArgumentError(`must name 1 to ${MAX_PINNED_TASKS} task ids, comma-separated`);
  return ids;
}

export const mcp = () =>
  new Command('mcp')
    .description('connect AI agents: the MCP endpoint and a client config to paste')
    .addCommand(
      new Command('url')
        .description('print the MCP endpoint (server.public_url + /v1/mcp) and a client config to paste into an MCP client')
        .addOption(new Option('--token <token>', 'a principal-bound token (gw_user_...) to put in the config').conflicts('key'))
        .option('--key <key>', 'an organization API key (gw_live_...) to put in the config')
        .option('--tasks <ids>', `pin up to ${MAX_PINNED_TASKS} tasks as tools of their own (comma-separated task ids)`, taskList)
        .option('--json', 'print {url, config}')
        .action(load(() => import('./url.js'))),
    );
