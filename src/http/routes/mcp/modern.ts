import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import { MCP_PATH } from '../../../domain/mcp.js';
import type { McpAnswer } from './exchange.js';
import { mcpServer } from './server.js';

/** The request headers the protocol's 2026-07-28 revision reads beside the body (the rest are hapi's). */
const PROTOCOL_HEADERS = ['mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

/**
 * The 2026-07-28 side of the endpoint: the SDK's own handler for that revision (no initialize, no session,
 * `server/discover`, the per-request `_meta` envelope, `input_required` results), with a fresh server per
 * request as it requires. It also answers what neither revision takes (a body that is not JSON-RPC, a
 * batch holding a 2026-07-28 request). hapi has authenticated and parsed the POST: the handler gets the
 * parsed body and the caller as `authInfo`, and its answer goes back through hapi.
 */
export function modernExchange(publicUrl: string) {
  const handler = createMcpHandler(({ era }) => mcpServer(publicUrl, era), { legacy: 'reject' });
  const url = `${publicUrl}${MCP_PATH}`;
  return async (headers: Record<string, string | undefined>, body: unknown, authInfo: AuthInfo): Promise<McpAnswer> => {
    // A plain object: the Request builds its own Headers from it (a Headers given would be copied).
    const forwarded: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of PROTOCOL_HEADERS) if (headers[name] !== undefined) forwarded[name] = headers[name];
    const response = await handler.fetch(new Request(url, { method: 'POST', headers: forwarded }), { authInfo, parsedBody: body });
    const text = await response.text();
    return { status: response.status, ...(text ? { body: text } : {}) };
  };
}
