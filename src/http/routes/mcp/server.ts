import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { packageRoot } from '../../../config/load.js';
import type { GatewayError } from '../../../domain/errors.js';
import { problemBody, toGatewayError } from '../../errors.js';
import type { Tool, ToolContext } from './tools.js';

const serverInfo = {
  name: 'task-gateway',
  title: 'Task gateway',
  version: (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version,
};

/**
 * One JSON Schema validator for every server: the SDK would build a new Ajv per server otherwise.
 * (The server uses it only for elicitation, which these never do.)
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** What a model reads on connecting: how to use the three tools and what to do with a connect link. */
export const INSTRUCTIONS = [
  'This gateway runs third-party tasks (APIs) for the user with one credential.',
  '1. Call discover_tasks with the job in plain words to find task ids; never guess an id.',
  '2. Before running a task you have not used yet, call describe_task: it gives the input schema and whether the task is ready for this user.',
  '3. Call run_task with the task id and an input that matches the schema; the result is {output, receipt}.',
  'If a result is an error carrying connect_url or reconnect_url, give that link to the user, ask them to open it and connect their account, then retry the same call.',
].join('\n');

/** A tool's answer, or a gateway error as the problem object: structured, and the same JSON as one text content. */
function toolResult(structured: Record<string, unknown>, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, ...(isError ? { isError } : {}) };
}

/** What one POST brings to the tool calls it holds: its caller and run headers, and where internal faults are noted. */
export interface ToolCall {
  context: ToolContext;
  /** Called with every internal error a tool call turned into an internal_error result, for the request log. */
  onFault(error: unknown): void;
}

/** A POST's tool call context as the SDK hands it to a request handler: the authenticated caller's `authInfo`. */
export function callAuthInfo(call: ToolCall): AuthInfo {
  return { token: '', clientId: call.context.caller.credentialId, scopes: [], extra: { call } };
}

const callOf = (authInfo: AuthInfo | undefined): ToolCall => authInfo!.extra!.call as ToolCall;

/**
 * A server for a set of tools, kept for the process and shared by every POST that lists those tools (the
 * endpoint is stateless: nothing of one POST stays in it). Only protocol faults are JSON-RPC errors (an
 * unknown tool among them); every gateway error is an isError tool result.
 */
export function mcpServer(tools: Tool[], publicUrl: string): Server {
  const server = new Server(serverInfo, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = {
    tools: tools.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema: inputSchema as { type: 'object' }, annotations })),
  };
  server.setRequestHandler(ListToolsRequestSchema, () => listed);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}; tools/list names the tools`);
    const { context, onFault } = callOf(extra.authInfo);
    try {
      return toolResult(await tool.call(context, request.params.arguments ?? {}), false);
    } catch (thrown) {
      const error: GatewayError = toGatewayError(thrown);
      if (error.code === 'internal_error') onFault(thrown);
      return toolResult(problemBody(error, publicUrl), true);
    }
  });
  return server;
}
