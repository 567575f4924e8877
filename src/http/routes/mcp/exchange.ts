import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** What one POST to the endpoint answers: a status and the JSON body, if any. */
export interface McpAnswer {
  status: number;
  body?: unknown;
}

/** How many messages a batch may hold (as the SDK's own HTTP transport allows). */
export const MAX_BATCH_SIZE = 100;

/** A fault of the HTTP exchange itself: a JSON-RPC error with no id, as the protocol's HTTP binding answers it. */
const exchangeFault = (status: number, code: number, message: string): McpAnswer => ({ status, body: { jsonrpc: '2.0', error: { code, message }, id: null } });

/**
 * The SDK's Transport for one stateless POST answered in JSON: it hands the request's messages to the server
 * and resolves once the server has answered every request among them. (The SDK's Streamable HTTP transport
 * does the same through web Request and Response objects and event-stream machinery, which cost more than the
 * rest of a tool call; this endpoint never streams.) Notifications the server sends along the way have no
 * event stream to go to and are dropped, as in the SDK's JSON answer mode.
 */
class OneExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly responses = new Map<RequestId, JSONRPCMessage>();
  private settle!: () => void;
  readonly answered = new Promise<void>((resolve) => {
    this.settle = resolve;
  });

  constructor(private readonly awaited: Set<RequestId>) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only responses to this POST's requests are answers; a response carries the id and no method.
    const id = 'method' in message ? undefined : message.id;
    if (id === undefined || !this.awaited.has(id)) return;
    this.responses.set(id, message);
    if (this.responses.size === this.awaited.size) this.settle();
  }

  /** The responses in the order of the requests. */
  inOrder(ids: RequestId[]): JSONRPCMessage[] {
    return ids.map((id) => this.responses.get(id)!);
  }
}

/**
 * Answers a POST's parsed body (one JSON-RPC message or a batch) with `server`, by the protocol's rules for
 * Streamable HTTP: messages that are not JSON-RPC are 400, an initialize request must come alone, a protocol
 * version header must name a version the SDK speaks, a body of only notifications or responses is 202, and
 * requests get their responses (one object for one message, an array for a batch).
 */
export async function answerMessages(server: Server, body: unknown, protocolVersion: string | undefined): Promise<McpAnswer> {
  const batch = Array.isArray(body);
  const raw: unknown[] = batch ? body : [body];
  if (batch && raw.length === 0) return exchangeFault(400, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch');
  if (raw.length > MAX_BATCH_SIZE) return exchangeFault(400, ErrorCode.InvalidRequest, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  const parsed = raw.map((message) => JSONRPCMessageSchema.safeParse(message));
  if (parsed.some((result) => !result.success)) return exchangeFault(400, ErrorCode.ParseError, 'Parse error: Invalid JSON-RPC message');
  const messages = parsed.map((result) => result.data!);
  if (messages.some(isInitializeRequest)) {
    if (messages.length > 1) return exchangeFault(400, ErrorCode.InvalidRequest, 'Invalid Request: Only one initialization request is allowed');
  } else if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    return exchangeFault(400, -32000, `Bad Request: Unsupported protocol version: ${protocolVersion} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  const ids = messages.filter(isJSONRPCRequest).map((request) => request.id);
  const transport = new OneExchange(new Set(ids));
  await server.connect(transport);
  for (const message of messages) transport.onmessage?.(message);
  if (ids.length === 0) return { status: 202 };
  await transport.answered;
  const responses = transport.inOrder(ids);
  return { status: 200, body: batch ? responses : responses[0] };
}
