import { readFileSync } from 'node:fs';
import path from 'node:path';
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
 * One JSON Schema validator for every request's server: the SDK would build a new Ajv per server otherwise,
 * which costs more than the rest of an MCP request. (The server uses it only for elicitation, which these never do.)
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

export interface McpRequest {
  context: ToolContext;
  tools: Tool[];
  publicUrl: string;
  /** Called with every internal error a tool call turned into an internal_error result, for the request log. */
  onFault(error: unknown): void;
}

/**
 * One request's MCP server (the endpoint is stateless: a fresh server and transport per POST). Only protocol
 * faults are JSON-RPC errors (an unknown tool among them); every gateway error is an isError tool result.
 */
export function mcpServer({ context, tools, publicUrl, onFault }: McpRequest): Server {
  const server = new Server(serverInfo, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema: inputSchema as { type: 'object' }, annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}; tools/list names the tools`);
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
