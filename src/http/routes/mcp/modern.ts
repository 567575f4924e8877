import { createMcpHandler, type AuthInfo, type InboundModernRoute } from '@modelcontextprotocol/server';
import { MCP_PATH } from '../../../domain/mcp.js';
import { SharedExchange, type McpAnswer } from './exchange.js';
import { callOf, MODERN_REVISION, mcpServer } from './server.js';

/** The request headers the protocol's 2026-07-28 revision reads beside the body (the rest are hapi's). */
const PROTOCOL_HEADERS = ['mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

/**
 * Whether the SDK's handler would hand this request to its server without a word of its own: a tools/call of a
 * tool of the endpoint (no tool name is in the Base64 form the `Mcp-Name` header may take), on the revision
 * served, whose headers name that revision, method and tool exactly. Its checks are then all passed: the
 * revision is served, the standard headers are present and agree with the body, and tools/call requires no
 * client capability.
 */
function passesHandlerChecks(route: InboundModernRoute, headers: Record<string, string | undefined>, authInfo: AuthInfo): route is Extract<InboundModernRoute, { messageKind: 'request' }> {
  if (route.messageKind !== 'request' || route.message.method !== 'tools/call' || route.classification.revision !== MODERN_REVISION) return false;
  const name = route.message.params?.name;
  return (
    headers['mcp-protocol-version'] === MODERN_REVISION &&
    headers['mcp-method'] === 'tools/call' &&
    typeof name === 'string' &&
    headers['mcp-name'] === name &&
    callOf(authInfo).tools.byName.has(name)
  );
}

/**
 * The 2026-07-28 side of the endpoint. A tools/call that passes every check of the SDK's HTTP handler for that
 * revision goes to one long-lived server bound to the revision, through a SharedExchange as the earlier
 * revisions' calls do: the handler's fresh server, per-request transport, web Request and Response per call
 * cost more CPU than the rest of a run. Everything else (no initialize, no session, `server/discover`, the
 * per-request `_meta` envelope, the handler's faults, and what neither revision takes: a body that is not
 * JSON-RPC, a batch holding a 2026-07-28 request) is the SDK's own handler's, with a fresh server per request
 * as it requires. hapi has authenticated and parsed the POST: either gets the parsed body and the caller as
 * `authInfo`, and its answer goes back through hapi as JSON text.
 */
export function modernExchange(publicUrl: string) {
  const handler = createMcpHandler(({ era }) => mcpServer(publicUrl, era), { legacy: 'reject' });
  const shared = new SharedExchange(mcpServer(publicUrl, 'modern'), { era: 'modern', revision: MODERN_REVISION });
  const url = `${publicUrl}${MCP_PATH}`;
  return async (headers: Record<string, string | undefined>, body: unknown, route: InboundModernRoute | undefined, authInfo: AuthInfo): Promise<McpAnswer> => {
    if (route && passesHandlerChecks(route, headers, authInfo)) {
      // The server's checks at dispatch are the handler's again (revision, method, envelope): past them, the SDK's
      // per-request transport answers a tools/call's response 200 (400 only for a missing client capability,
      // which no tool here requires), as JSON text.
      return { status: 200, body: JSON.stringify(await shared.exchange(route.message, { classification: route.classification, authInfo })) };
    }
    // A plain object: the Request builds its own Headers from it (a Headers given would be copied).
    const forwarded: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of PROTOCOL_HEADERS) if (headers[name] !== undefined) forwarded[name] = headers[name];
    const response = await handler.fetch(new Request(url, { method: 'POST', headers: forwarded }), { authInfo, parsedBody: body });
    const text = await response.text();
    return { status: response.status, ...(text ? { body: text } : {}) };
  };
}
