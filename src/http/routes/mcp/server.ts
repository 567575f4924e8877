import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type AuthInfo,
  type CallToolResult,
  type InputRequiredResult,
  type ClientCapabilities,
  type ProtocolEra,
  type ServerContext,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { packageRoot } from '../../../config/load.js';
import { problemBody, toGatewayError, type ProblemDetails } from '../../errors.js';
import type { Tool, ToolContext } from './tools.js';

const serverInfo = {
  name: 'task-gateway',
  title: 'Task gateway',
  version: (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version,
};

/** The revision of the per-request `_meta` envelope this endpoint serves besides the SDK's earlier ones. */
export const MODERN_REVISION = '2026-07-28';

/** One JSON Schema validator for every server: the SDK would build a new Ajv per server otherwise. */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** What a model reads on connecting: how to use the three tools and what to do with a link for the user. */
export const INSTRUCTIONS = [
  'This gateway runs third-party tasks (APIs) for the user with one credential.',
  '1. Call discover_tasks with the job in plain words to find task ids; never guess an id.',
  '2. Before running a task you have not used yet, call describe_task: it gives the input schema and whether the task is ready for this user.',
  '3. Call run_task with the task id and an input that matches the schema; the result is {output, receipt}.',
  'If a result is an error carrying connect_url or reconnect_url, give that link to the user, ask them to open it and connect their account, then retry the same call.',
  'If a result is an error carrying approval_url, give that link to the user, ask them to review and approve the run there, then retry the same call unchanged.',
].join('\n');

/** The tools one endpoint URL lists (the three, plus the tasks its `?tasks=` pins), with their tools/list answer built once. */
export interface ToolSet {
  byName: Map<string, Tool>;
  listed: { tools: Array<Pick<Tool, 'name' | 'title' | 'description' | 'annotations' | 'outputSchema'> & { inputSchema: { type: 'object' } }> };
}

export function toolSet(tools: Tool[]): ToolSet {
  return {
    byName: new Map(tools.map((tool) => [tool.name, tool])),
    listed: {
      tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
        name,
        title,
        description,
        inputSchema: inputSchema as { type: 'object' },
        ...(outputSchema ? { outputSchema } : {}),
        annotations,
      })),
    },
  };
}

/** A tool's answer, or a gateway error as the problem object: structured, and the same JSON as one text content. */
function toolResult(structured: Record<string, unknown>, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, ...(isError ? { isError } : {}) };
}

/** What one POST brings to the tool calls it holds: its caller and run headers, its tools, and where internal faults are noted. */
export interface ToolCall {
  context: ToolContext;
  tools: ToolSet;
  /** Called with every internal error a tool call turned into an internal_error result, for the request log. */
  onFault(error: unknown): void;
}

/** A POST's tool call context as the SDK hands it to a request handler: the authenticated caller's `authInfo`. */
export function callAuthInfo(call: ToolCall): AuthInfo {
  return { token: '', clientId: call.context.caller.credentialId, scopes: [], extra: { call } };
}

export const callOf = (authInfo: AuthInfo | undefined): ToolCall => authInfo!.extra!.call as ToolCall;

/** The key of the one input request a run asks for: the end user's visit to a hosted page. */
const USER_VISIT = 'user_visit';

/** What the end user is asked to do at each kind of hosted link a problem carries. */
const USER_LINKS = [
  ['connect_url', 'connect your account'],
  ['reconnect_url', 'sign in to your account again'],
  ['approval_url', 'review this run and approve or decline it'],
] as const;

/**
 * On 2026-07-28, a run that waits for its end user at a hosted page (a connection to make or renew, a run to
 * approve) is an `input_required` result whose one URL-mode elicitation is that page, for a client that takes
 * URL elicitations; the client's retry of the same call runs. Undefined (the problem stays an isError result)
 * when the problem carries no such link, the client takes no URL elicitation, or the user declined the last one.
 */
function userVisit(problem: ProblemDetails, ctx: ServerContext, taskTitle: string | undefined): InputRequiredResult | undefined {
  const link = USER_LINKS.find(([member]) => typeof problem[member] === 'string');
  const client = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (!link || client?.elicitation?.url === undefined) return undefined;
  const answered = ctx.mcpReq.inputResponses?.[USER_VISIT] as { action?: unknown } | undefined;
  if (answered !== undefined && answered.action !== 'accept') return undefined;
  const [member, deed] = link;
  const url = problem[member] as string;
  return inputRequired({
    inputRequests: {
      [USER_VISIT]: inputRequired.elicitUrl({
        message: `Open the link to ${deed}${taskTitle ? ` so the agent can run "${taskTitle}"` : ''}; the agent goes on when you are done.`,
        url,
      }),
    },
  });
}

/**
 * A server speaking one era; each request's tools and caller come with it (`authInfo`), so one server can
 * answer every POST. Only protocol faults are JSON-RPC errors (an unknown tool among them); every gateway
 * error is an isError tool result, or on 2026-07-28 an `input_required` result when the run waits for its
 * end user at a hosted page.
 */
export function mcpServer(publicUrl: string, era: ProtocolEra): Server {
  // A 2026-07-28 server lists that revision, so that connecting it to a transport classified so binds it to it.
  const supportedProtocolVersions = era === 'modern' ? [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION] : SUPPORTED_PROTOCOL_VERSIONS;
  const server = new Server(serverInfo, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator, supportedProtocolVersions });
  server.setRequestHandler('tools/list', (_request, ctx) => callOf(ctx.http?.authInfo).tools.listed);
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const call = callOf(ctx.http?.authInfo);
    const tool = call.tools.byName.get(request.params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no tool ${request.params.name}; tools/list names the tools`);
    const args = request.params.arguments ?? {};
    try {
      return toolResult(await tool.call(call.context, args), false);
    } catch (thrown) {
      const error = toGatewayError(thrown);
      if (error.code === 'internal_error') call.onFault(thrown);
      const problem = problemBody(error, publicUrl);
      // On 2026-07-28 the client's capabilities are those its request's envelope declares.
      return (era === 'modern' && userVisit(problem, ctx, tool.taskOf(call.context, args)?.title)) || toolResult(problem, true);
    }
  });
  return server;
}
