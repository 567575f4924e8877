import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, isJSONRPCRequest, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';

/** What one POST to the endpoint answers: a status and the JSON body, if any. */
export interface McpAnswer {
  status: number;
  body?: unknown;
}

/** How many messages a batch may hold (as the SDK's own HTTP transport allows). */
export const MAX_BATCH_SIZE = 100;

/**
 * A JSON-RPC 2.0 message as the SDK's protocol layer will take it: a request (checked as the SDK checks it, so
 * every request handed on gets an answer), a notification or a response. Notifications and responses are
 * acknowledged and dropped, so only their envelope matters.
 */
function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if ('method' in message && 'id' in message) return isJSONRPCRequest(message);
  return message.jsonrpc === '2.0' && (typeof message.method === 'string' || ('id' in message && ('result' in message || 'error' in message)));
}

/** A request (a method and an id) rather than a notification or a response. */
const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest => 'method' in message && 'id' in message;

/** A fault of the HTTP exchange itself: a JSON-RPC error with no id, as the protocol's HTTP binding answers it. */
export const exchangeFault = (status: number, code: number, message: string): McpAnswer => ({ status, body: { jsonrpc: '2.0', error: { code, message }, id: null } });

/**
 * The one Transport of a long-lived SDK Server, shared by every POST: each POST's requests go to the server
 * under ids of the transport's own (clients number their requests independently, so theirs would collide)
 * with the POST's caller as the request's `authInfo`, and each response goes back to its POST under the
 * client's id. The SDK's Streamable HTTP transport would cost a web Request and Response, event-stream
 * machinery and a fresh Server per POST, more than the rest of a tool call; this endpoint never streams.
 * Client notifications are acknowledged and dropped: with no session, a cancellation or progress note could
 * only name a request of another POST. Server notifications have no stream to go to and are dropped too.
 */
export class SharedExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private lastId = 0;
  private readonly waiting = new Map<number, (response: JSONRPCMessage) => void>();
  private readonly connected: Promise<void>;

  constructor(server: Server) {
    this.connected = server.connect(this);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only responses are answers: a response carries an id and no method.
    if ('method' in message) return;
    const deliver = this.waiting.get(message.id as number);
    this.waiting.delete(message.id as number);
    deliver?.(message);
  }

  /** Hands a POST's requests to the server; the responses, in the order of the requests. */
  async exchange(requests: JSONRPCRequest[], authInfo: AuthInfo): Promise<JSONRPCMessage[]> {
    await this.connected;
    return Promise.all(
      requests.map(
        (request) =>
          new Promise<JSONRPCMessage>((resolve) => {
            const id = ++this.lastId;
            this.waiting.set(id, (response) => resolve({ ...response, id: request.id } as JSONRPCMessage));
            this.onmessage?.({ ...request, id }, { authInfo });
          }),
      ),
    );
  }
}

/**
 * Answers a POST's parsed body (one JSON-RPC message or a batch) through `exchange`, by the protocol's rules
 * for Streamable HTTP: messages that are not JSON-RPC are 400, an initialize request must come alone, a
 * protocol version header must name a version the SDK speaks, a body of only notifications or responses is
 * 202, and requests get their responses (one object for one message, an array for a batch).
 */
export async function answerMessages(exchange: SharedExchange, body: unknown, protocolVersion: string | undefined, authInfo: AuthInfo): Promise<McpAnswer> {
  const batch = Array.isArray(body);
  const raw: unknown[] = batch ? body : [body];
  if (batch && raw.length === 0) return exchangeFault(400, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch');
  if (raw.length > MAX_BATCH_SIZE) return exchangeFault(400, ErrorCode.InvalidRequest, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  if (!raw.every(isJsonRpcMessage)) return exchangeFault(400, ErrorCode.ParseError, 'Parse error: Invalid JSON-RPC message');
  const requests = (raw as JSONRPCMessage[]).filter(isRequest);
  if (requests.some((request) => request.method === 'initialize')) {
    if (raw.length > 1) return exchangeFault(400, ErrorCode.InvalidRequest, 'Invalid Request: Only one initialization request is allowed');
  } else if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    return exchangeFault(400, -32000, `Bad Request: Unsupported protocol version: ${protocolVersion} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  if (requests.length === 0) return { status: 202 };
  const responses = await exchange.exchange(requests, authInfo);
  return { status: 200, body: batch ? responses : responses[0] };
}
