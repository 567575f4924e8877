import {
  PerRequestHTTPServerTransport,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  type MessageExtraInfo,
  type Server,
} from '@modelcontextprotocol/server';

/** What one POST to the endpoint answers: a status and the JSON body (an object, or JSON text), if any. */
export interface McpAnswer {
  status: number;
  body?: object | string;
}

/** How many messages a batch may hold (as the SDK's own HTTP transport allows). */
export const MAX_BATCH_SIZE = 100;

/** A request (a method and an id) rather than a notification or a response. */
const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest => 'method' in message && 'id' in message;

/** A fault of the HTTP exchange itself: a JSON-RPC error with no id, as the protocol's HTTP binding answers it. */
export const exchangeFault = (status: number, code: number, message: string): McpAnswer => ({ status, body: { jsonrpc: '2.0', error: { code, message }, id: null } });

/**
 * What is wrong with a tools/call's params, said plainly (the SDK's own check answers with its schema
 * library's report): a tool name that is not text, or arguments that are not an object. Undefined when fine
 * or when the request is not a tools/call.
 */
export function toolCallFault(message: { method?: unknown; params?: unknown }): string | undefined {
  if (message.method !== 'tools/call') return undefined;
  const params = (message.params ?? {}) as Record<string, unknown>;
  if (typeof params.name !== 'string') return 'Invalid params: name must be the name of a tool (a string)';
  const args = params.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return 'Invalid params: arguments must be an object';
  return undefined;
}

/** The JSON-RPC error answering a request whose params are wrong. */
export const invalidParams = (id: JSONRPCRequest['id'], message: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InvalidParams, message } });

/**
 * The one Transport of a long-lived SDK Server, shared by every POST: each POST's requests go to the server
 * under ids of the transport's own (clients number their requests independently, so theirs would collide)
 * with the POST's caller as the request's `authInfo`, and each response goes back to its POST under the
 * client's id. The SDK's Streamable HTTP transports would cost a web Request and Response, event-stream
 * machinery, a fresh Server and its close per POST, more than the rest of a tool call; this endpoint never
 * streams. It extends the SDK's per-request transport only because connecting a Server to one binds the
 * server to its classification's revision: the 2026-07-28 server is bound so, the earlier revisions' one
 * (a classification naming no revision) is not. Client notifications are acknowledged and dropped: with no
 * session, a cancellation or progress note could only name a request of another POST. Server notifications
 * have no stream to go to and are dropped too.
 */
export class SharedExchange extends PerRequestHTTPServerTransport {
  private lastId = 0;
  private readonly waiting = new Map<number, (response: JSONRPCMessage) => void>();
  private readonly connected: Promise<void>;

  constructor(server: Server, classification: MessageClassification = { era: 'legacy' }) {
    super({ classification });
    this.connected = server.connect(this);
  }

  override async close(): Promise<void> {
    this.onclose?.();
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    // Only responses are answers: a response carries an id and no method.
    if ('method' in message) return;
    const deliver = this.waiting.get(message.id as number);
    this.waiting.delete(message.id as number);
    deliver?.(message);
  }

  /** Hands one of a POST's requests to the server (with the POST's caller and the request's classification, if any); its response. */
  async exchange(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    await this.connected;
    return new Promise<JSONRPCMessage>((resolve) => {
      const id = ++this.lastId;
      this.waiting.set(id, (response) => resolve({ ...response, id: request.id } as JSONRPCMessage));
      this.onmessage?.({ ...request, id }, extra);
    });
  }
}

/**
 * Answers a POST's parsed body of the earlier revisions (one JSON-RPC message or a batch, each already
 * found to be JSON-RPC of those revisions) through `exchange`, by the protocol's rules for Streamable
 * HTTP: a batch holds at most 100 messages, an initialize request must come alone, a protocol version
 * header must name a version the SDK speaks, a body of only notifications or responses is 202, and
 * requests get their responses in order (one object for one message, an array for a batch), a tools/call
 * with malformed params its invalid-params error.
 */
export async function answerMessages(exchange: SharedExchange, body: unknown, protocolVersion: string | undefined, authInfo: AuthInfo): Promise<McpAnswer> {
  const batch = Array.isArray(body);
  const messages = (batch ? body : [body]) as JSONRPCMessage[];
  if (messages.length > MAX_BATCH_SIZE) return exchangeFault(400, ProtocolErrorCode.InvalidRequest, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  const requests = messages.filter(isRequest);
  if (requests.some((request) => request.method === 'initialize')) {
    if (messages.length > 1) return exchangeFault(400, ProtocolErrorCode.InvalidRequest, 'Invalid Request: Only one initialization request is allowed');
  } else if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    return exchangeFault(400, -32000, `Bad Request: Unsupported protocol version: ${protocolVersion} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  if (requests.length === 0) return { status: 202 };
  const responses = await Promise.all(
    requests.map((request) => {
      const fault = toolCallFault(request);
      return fault ? invalidParams(request.id, fault) : exchange.exchange(request, { authInfo });
    }),
  );
  return { status: 200, body: batch ? responses : responses[0] };
}
