import type { Command } from 'commander';
import { API_KEY_PREFIX } from '../../../domain/api-keys.js';
import { USER_TOKEN_PREFIX } from '../../../domain/callers.js';
import { loadCatalog } from '../../../domain/catalog/load.js';
import { mcpUrl, pinnedTaskProblems } from '../../../domain/mcp.js';
import { configFor } from '../../context.js';
import { invocationOf } from '../../invocation.js';
import { print } from '../../output.js';

/** The name the client config gives the server. */
const SERVER_NAME = 'task-gateway';

/** Stands in for the credential when none is given; the user replaces it. */
const PLACEHOLDER = '<gw_user_ token or gw_live_ key>';

interface UrlOptions {
  token?: string;
  key?: string;
  tasks?: string[];
  json?: boolean;
}

/** Why a credential given on the command line is not one (never echoing it, as commander's own message would). */
function credentialProblem(options: UrlOptions): string | undefined {
  const given = [
    ['--token <token>', options.token, USER_TOKEN_PREFIX, 'a principal-bound token'],
    ['--key <key>', options.key, API_KEY_PREFIX, 'an organization API key'],
  ] as const;
  for (const [flag, value, prefix, what] of given) {
    if (value !== undefined && (!value.startsWith(prefix) || !/^[\x21-\x7e]+$/.test(value))) return `error: option '${flag}' must be ${what} (${prefix}...)`;
  }
  return undefined;
}

/**
 * Which catalog the ids were looked up in. The CLI reads the catalog files of its own configuration, so a
 * task that only `serve`'s `--config` or GATEWAY_CATALOG adds is missing unless the same is given here.
 */
function loadedFrom(files: string[]): string {
  if (files.length) return `(looked up in the built-in catalog and catalog.files ${files.join(', ')})`;
  return "(looked up in the built-in catalog only: no catalog.files are configured; give serve's --config or GATEWAY_CATALOG to see its tasks)";
}

/** The JSON block MCP clients take (Claude, Cursor and others): the server's URL and the bearer header. */
export function clientConfig(endpoint: string, bearer: string) {
  return { mcpServers: { [SERVER_NAME]: { url: endpoint, headers: { Authorization: `Bearer ${bearer}` } } } };
}

export async function run(options: UrlOptions, command: Command): Promise<void> {
  const badCredential = credentialProblem(options);
  if (badCredential) command.error(badCredential, { exitCode: 2 });
  const config = configFor(command);
  const tasks = options.tasks ?? [];
  if (tasks.length) {
    const problems = pinnedTaskProblems(loadCatalog(config), tasks);
    if (problems.length) command.error(`error: option '--tasks <ids>': ${problems.join('; ')} ${loadedFrom(config.catalog.files)}`, { exitCode: 2 });
  }
  // The config is still printed (the endpoint may be switched on before the client connects), with a word that it is off now.
  if (!config.mcp.enabled) invocationOf(command).stderr.write('warning: mcp.enabled is false in this configuration: the endpoint answers 404 until it is switched on\n');
  const endpoint = mcpUrl(config.server.public_url, tasks);
  const clientBlock = clientConfig(endpoint, options.token ?? options.key ?? PLACEHOLDER);
  print(command, !!options.json, { url: endpoint, config: clientBlock }, () =>
    [
      `MCP endpoint: ${endpoint}`,
      `Client config (paste into your MCP client's settings${options.token || options.key ? '' : `, replacing ${PLACEHOLDER}`}):`,
      JSON.stringify(clientBlock, null, 2),
    ].join('\n'),
  );
}
