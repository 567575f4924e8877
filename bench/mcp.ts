/**
 * The MCP side of `npm run bench`: the same run and the same discover jobs sent as MCP tool calls to
 * POST /v1/mcp, measured beside their REST twins, and the figures that compare the two.
 */
import type { Target } from './load.js';
import type { BenchGateway } from './servers.js';

/** A stateless MCP POST needs no initialize first: each tools/call stands alone. */
function toolCall(name: string, args: Record<string, unknown>, id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}

export function mcpTarget(gateway: BenchGateway, tool: string, argumentsList: Array<Record<string, unknown>>): Target {
  return {
    url: `${gateway.server.url}/v1/mcp`,
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.ownerKey}`, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    bodies: argumentsList.map((args, i) => toolCall(tool, args, i + 1)),
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
