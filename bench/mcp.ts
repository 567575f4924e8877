/**
 * The MCP side of `npm run bench`: the same run and the same discover jobs sent as MCP tool calls to
 * POST /v1/mcp, measured beside their REST twins, and the figures that compare the two.
 */
import type { Target } from './load.js';
import type { BenchGateway } from './servers.js';

/** The protocol generations the endpoint serves: the earlier revisions (a stateless client sends no initialize first) and 2026-07-28. */
export type Generation = 'earlier' | 'modern';

/** What a 2026-07-28 client says of itself in every request's `_meta`. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Each tools/call stands alone: on the earlier revisions with no initialize first, on 2026-07-28 with its envelope. */
function toolCall(name: string, args: Record<string, unknown>, id: number, generation: Generation): string {
  const params = generation === 'modern' ? { name, arguments: args, _meta: ENVELOPE } : { name, arguments: args };
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}

export function mcpTarget(gateway: BenchGateway, tool: string, argumentsList: Array<Record<string, unknown>>, generation: Generation = 'earlier'): Target {
  const protocol: Record<string, string> = generation === 'modern' ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool } : { 'mcp-protocol-version': '2025-11-25' };
  return {
    url: `${gateway.server.url}/v1/mcp`,
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.ownerKey}`, accept: 'application/json, text/event-stream', ...protocol },
    bodies: argumentsList.map((args, i) => toolCall(tool, args, i + 1, generation)),
  };
}

/**
 * A tool error is still HTTP 200, which the load generator counts as a success: one call of each body first,
 * so the figures are never those of an endpoint answering errors quickly.
 */
export async function checkToolCalls(target: Target): Promise<void> {
  for (const body of target.bodies ?? []) {
    const response = await fetch(target.url, { method: 'POST', headers: { ...target.headers, 'content-type': 'application/json' }, body });
    const answer = (await response.json()) as { result?: { isError?: boolean; structuredContent?: unknown }; error?: unknown };
    if (response.status !== 200 || !answer.result || answer.result.isError) {
      throw new Error(`MCP bench call failed (${response.status}): ${JSON.stringify(answer).slice(0, 300)}`);
    }
  }
}

/** MCP against REST, side by side: per round the difference of p50s and the ratio of CPU per call, medians over rounds. */
export interface McpComparison {
  path: string;
  addedP50Ms: number;
  cpuRatio: number | null;
}

export const MCP_TARGETS = { addedP50Ms: 0.3, cpuRatio: 1.3, discoverAddedP50Ms: 0.3 };
