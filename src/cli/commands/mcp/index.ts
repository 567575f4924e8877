import { Command } from 'commander';
import { url } from './url.js';

export const mcp = new Command('mcp').description('connect AI agents: the MCP endpoint and a client config to paste').addCommand(url);
