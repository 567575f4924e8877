import Accept from '@hapi/accept';
import type { ServerRoute } from '@hapi/hapi';
import { classifyInboundRequest, type JSONRPCRequest } from '@modelcontextprotocol/server';
import Joi from 'joi';
import type { Catalog, Task } from '../../../domain/catalog/types.js';
import { GatewayError, invalidInput } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';
import { runHeaders } from '../tasks/run.js';
import { answerMessages, exchangeFault, invalidParams, SharedExchange, toolCallFault, type McpAnswer } from './exchange.js';
import { MAX_PINNED_TASKS, MCP_PATH, pinnedTaskIds, pinnedTaskProblems } from '../../../domain/mcp.js';
import { modernExchange } from './modern.js';
import { callAuthInfo, mcpServer, toolSet, type ToolSet } from './server.js';
import { fixedTools, pinnedTool } from './tools.js';

/** A JSON-RPC 2.0 response: a result, or an error for a protocol fault (tool errors are results with isError). */
const jsonRpcResponse = Joi.object({
  jsonrpc: Joi.string().valid('2.0').required(),
  id: Joi.alternatives(Joi.string(), Joi.number(), Joi.valid(null)),
  result: Joi.object().unknown(true),
  error: Joi.object({ code: Joi.number().integer().required(), message: Joi.string().required(), data: Joi.any() }),
})
  .xor('result', 'error')
  .id('JsonRpcResponse');

/** A JSON-RPC 2.0 request or notification: the body the API document shows (the protocol checks it, not joi). */
const jsonRpcRequest = Joi.object({
  jsonrpc: Joi.string().valid('2.0').required(),
  id: Joi.alternatives(Joi.string(), Joi.number()).description('absent on a notification'),
  method: Joi.string().required(),
  params: Joi.object().unknown(true),
}).id('JsonRpcRequest');

/** The answers of POST /v1/mcp besides problem+json: the JSON-RPC response(s), or 202 for notifications only. */
const mcpAnswers = answers({
  200: Joi.alternatives(jsonRpcResponse, Joi.array().items(jsonRpcResponse)).description('the JSON-RPC response, or one per request of a batch'),
  202: records.empty.description('the message held only notifications or responses'),
  400: jsonRpcResponse.description('a JSON-RPC error: the message is not valid JSON-RPC of a revision served'),
  404: jsonRpcResponse.description('a JSON-RPC error: a method revision 2026-07-28 does not have'),
  406: jsonRpcResponse.description('a JSON-RPC error: Accept takes no JSON (none, */*, application/json or both media types are fine)'),
});

/** The tasks `?tasks=id1,id2` pins, checked before any MCP: at most 20, each named once, in the catalog and active. */
function pinnedTasks(catalog: Catalog, ids: string[]): Task[] {
  const problems = pinnedTaskProblems(catalog, ids);
  if (problems.length) {
    throw invalidInput(`tasks can pin up to ${MAX_PINNED_TASKS} active tasks of the catalog: ${problems.join('; ')}`, problems.map((reason) => ({ name: 'query.tasks', reason })));
  }
  return ids.map((id) => catalog.tasks.get(id)!);
}

/** Tool sets kept for lists of pinned tasks (and the one without): past this many, the oldest is let go. */
const MAX_KEPT_TOOL_SETS = 64;

/** The tools of each endpoint URL: the three, plus the tasks its `?tasks=` pins. */
function toolSets(catalog: Catalog) {
  const kept = new Map<string, ToolSet>();
  return (pinnedList: string | undefined): ToolSet => {
    const key = pinnedList ?? '';
    let tools = kept.get(key);
    if (!tools) {
      const pinned = pinnedList === undefined ? [] : pinnedTasks(catalog, pinnedTaskIds(pinnedList));
      tools = toolSet([...fixedTools, ...pinned.map(pinnedTool)]);
      kept.set(key, tools);
      if (kept.size > MAX_KEPT_TOOL_SETS) kept.delete(kept.keys().next().value!);
    }
    return tools;
  };
}

/**
 * Whether the client takes the JSON this endpoint answers: no Accept, or one that, weighed by its q-values,
 * allows `application/json` (`*\/*`, `application/*`, `application/json`). The protocol tells clients to accept
 * JSON and event streams both; this endpoint only answers JSON. A client sends the same Accept on every call,
 * so the last one weighed is remembered (weighing it is a parse of its media ranges on every POST).
 */
function acceptWeigher() {
  let lastAccept: string | undefined;
  let lastTakesJson = true;
  return (accept: string | undefined): boolean => {
    if (accept !== lastAccept) {
      lastTakesJson = Accept.mediaType(accept, ['application/json']) !== '';
      lastAccept = accept;
    }
    return lastTakesJson;
  };
}

const NOT_ACCEPTABLE = exchangeFault(406, -32000, 'Not Acceptable: the endpoint answers application/json; Accept must allow it');

/**
 * POST /v1/mcp: MCP over Streamable HTTP, stateless and answered in plain JSON, in both protocol generations.
 * hapi authenticates and parses (so 401, 413 and malformed JSON leave by the one problem+json path); the
 * SDK's classification of the message picks the generation: messages of the earlier revisions (initialize,
 * batches, no `_meta` envelope) go to the long-lived server of exchange.ts, everything else to the
 * 2026-07-28 side (modern.ts). hapi sends either answer like any other, with its usual headers.
 */
const mcpPost = (gateway: Gateway, corsRequestHeaders: string[]): ServerRoute => {
  const toolsFor = toolSets(gateway.catalog);
  const { public_url: publicUrl } = gateway.config.server;
  const legacy = new SharedExchange(mcpServer(publicUrl, 'legacy'));
  const modern = modernExchange(publicUrl);
  const takesJson = acceptWeigher();
  return operation({
    method: 'POST',
    path: MCP_PATH,
    options: {
      // A browser's MCP client sends the protocol's headers; its preflight must allow them.
      cors: { additionalHeaders: [...corsRequestHeaders, 'mcp-protocol-version', 'mcp-method', 'mcp-name'] },
      description: 'MCP over Streamable HTTP (stateless, JSON answers; revision 2026-07-28 and the earlier ones): the tools discover_tasks, describe_task, run_task and pinned tasks',
      response: mcpAnswers,
      // A run_task's input sits three levels inside the JSON-RPC request (params.arguments.input).
      plugins: { gateway: { userTokens: true }, jsonEnvelopeDepth: 3, openapi: { body: Joi.alternatives(jsonRpcRequest, Joi.array().items(jsonRpcRequest)).required() } },
      validate: {
        headers: runHeaders,
        query: Joi.object<{ tasks?: string }>({ tasks: fields.text(MAX_PINNED_TASKS * 101) }),
        // A JSON-RPC message or a batch; whether it is well-formed JSON-RPC is the protocol's to answer.
        payload: Joi.alternatives<object>(Joi.object().unknown(true), Joi.array()).required(),
        // As the run route: one joi call on every call.
        inOnePass: true,
      },
    },
    async handler(request, h) {
      const tools = toolsFor(request.query.tasks);
      const authInfo = callAuthInfo({
        context: { gateway, caller: callerOf(request), headers: request.headers },
        tools,
        onFault: (error) => {
          request.app.faulted = { name: (error as Error)?.name ?? 'Error' };
        },
      });
      const { headers, payload } = request;
      const protocolVersion = headers['mcp-protocol-version'];
      let answer: McpAnswer;
      if (!takesJson(headers.accept)) answer = NOT_ACCEPTABLE;
      else {
        const route = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: protocolVersion, mcpMethodHeader: headers['mcp-method'], mcpNameHeader: headers['mcp-name'], body: payload });
        const fault = route.kind === 'modern' && route.messageKind === 'request' ? toolCallFault(route.message) : undefined;
        if (route.kind === 'legacy') answer = await answerMessages(legacy, payload, protocolVersion, authInfo);
        else if (fault) answer = { status: 200, body: invalidParams((route.message as JSONRPCRequest).id, fault) };
        else answer = await modern(headers, payload, route.kind === 'modern' ? route : undefined, authInfo);
      }
      if (answer.body === undefined) return h.response().code(answer.status);
      // The 2026-07-28 handler answers JSON text: it goes out as it is.
      return typeof answer.body === 'string' ? h.response(answer.body).type('application/json').code(answer.status) : h.response(answer.body).code(answer.status);
    },
  });
};

/** The endpoint keeps no sessions and opens no event streams: every method but POST is 405. */
const notAllowed = (method: 'GET' | 'DELETE' | 'PUT' | 'PATCH'): ServerRoute => operation({
  method,
  path: MCP_PATH,
  options: { auth: false, plugins: { openapi: { errors: ['method_not_allowed'] } } },
  handler() {
    throw new GatewayError('method_not_allowed', `${method} is not used on ${MCP_PATH}: the endpoint is stateless; POST each JSON-RPC message`, {}, { Allow: 'POST' });
  },
});

/** The endpoint's routes; `corsRequestHeaders` are the request headers the server's CORS settings allow. */
export const mcpEndpoint = (gateway: Gateway, corsRequestHeaders: string[]): ServerRoute[] => [
  mcpPost(gateway, corsRequestHeaders),
  notAllowed('GET'),
  notAllowed('DELETE'),
  notAllowed('PUT'),
  notAllowed('PATCH'),
];
