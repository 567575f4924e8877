import Joi from 'joi';
import joiToJson from 'joi-to-json';
import { presentTask } from '../../../domain/catalog/present.js';
import { findActiveTask, findProvider } from '../../../domain/catalog/query.js';
import type { JsonSchema, Task } from '../../../domain/catalog/types.js';
import type { Caller } from '../../../domain/callers.js';
import { discover } from '../../../domain/discovery/discover.js';
import { readiness } from '../../../domain/discovery/readiness.js';
import type { Gateway } from '../../../domain/gateway.js';
import { actingPrincipal } from '../../../domain/principals.js';
import { runCount, type RunCount } from '../../../domain/rate-limits.js';
import { USD_DECIMAL } from '../../../domain/run/request.js';
import { runTask } from '../../../domain/run/run.js';
import { fields } from '../../../domain/contracts/fields.js';
import { invalidSource } from '../../errors.js';
import { records } from '../../records.js';
import { discoverFields } from '../discover/discover.js';
import { runRequest, type RunHeaders } from '../tasks/run.js';

/** What a tool call knows of the HTTP request it came in: the caller and its (validated) run headers. */
export interface ToolContext {
  gateway: Gateway;
  caller: Caller;
  headers: RunHeaders;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  /** What a successful call's structuredContent looks like, when known. */
  outputSchema?: JsonSchema;
  annotations: ToolAnnotations;
  /** Checks the arguments and answers the tool's result, or throws a GatewayError. */
  call(context: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The task a call of this tool runs, when it runs one. */
  taskOf(context: ToolContext, args: Record<string, unknown>): Task | undefined;
}

/** MCP's tool annotations: hints an agent host reads to decide when to ask its user before a call. */
interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Whether the tool reaches beyond the gateway (a third party's API). */
  openWorldHint: boolean;
}

/** What the gateway's own reading tools are: they read its catalog and state, and reach no third party. */
const READS_GATEWAY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** joi-to-json is CommonJS whose module.exports is the function itself; its types describe an ES default export. */
const toJsonSchema = joiToJson as unknown as typeof joiToJson.default;

const SLUG_LIST_MAX = 1000;

/** A routing list of provider slugs; joined it must fit where the svc-only / svc-order header would. */
const providerSlugs = () =>
  Joi.array()
    .items(fields.text(100).pattern(/^[a-z0-9-]+$/).messages({ 'string.pattern.base': '{{#label}} must be a provider slug' }))
    .min(1)
    .max(50)
    .custom((slugs: string[], helpers) => (slugs.join(',').length > SLUG_LIST_MAX ? helpers.error('array.joinedLength') : slugs))
    .messages({ 'array.joinedLength': `{{#label}} must take at most ${SLUG_LIST_MAX} characters joined with commas` });

const taskId = () => fields.pathId().description('a task id from discover_tasks, e.g. open-meteo.weather.current');

/**
 * A run counts against the whole run budget whatever it answers (bad arguments included), as a REST run does:
 * as the token's own principal, else the one svc-principal names; counted by the run with its call row, else
 * before its answer leaves, and an over-budget call answers 429 whatever it would have answered.
 */
async function asRun<R>({ gateway, caller, headers }: ToolContext, work: (count: RunCount) => Promise<R>): Promise<R> {
  const count = runCount(gateway, caller, caller.kind === 'user_token' ? caller.principal! : headers['svc-principal']);
  try {
    return await work(count);
  } finally {
    await count.count();
  }
}

/** A tool's arguments schema, its preferences set once: passing them to every validate() makes joi merge them on every call. */
const argumentsSchema = (schema: Joi.ObjectSchema) => schema.prefs({ abortEarly: false });

/** A call's arguments as the schema accepts them, or 400 invalid_input naming each bad one (`arguments.<name>`). */
function checkedArguments<A>(schema: Joi.ObjectSchema, args: Record<string, unknown>): A {
  const { error, value } = schema.validate(args);
  if (error) throw invalidSource('arguments', error.details);
  return value as A;
}

/** A tool whose arguments are a joi schema: the same schema checks a call and, as JSON Schema, is the listed inputSchema. */
function toolWithArguments<A>(
  definition: Omit<Tool, 'inputSchema' | 'call' | 'taskOf'> & {
    taskOf?: Tool['taskOf'];
    arguments: Joi.ObjectSchema;
    call(context: ToolContext, args: A): Promise<Record<string, unknown>>;
  },
): Tool {
  const { arguments: unprepared, call, ...listed } = definition;
  const schema = argumentsSchema(unprepared);
  return {
    taskOf: () => undefined,
    ...listed,
    inputSchema: toJsonSchema(schema, 'json') as JsonSchema,
    call: async (context, args) => call(context, checkedArguments<A>(schema, args)),
  };
}

interface Routing {
  only?: string[];
  order?: string[];
  sort?: 'cost' | 'latency' | 'reliability';
  max_cost?: string;
  zero_retention?: boolean;
}

interface RunArguments {
  task_id: string;
  input: Record<string, unknown>;
  idempotency_key?: string;
  routing?: Routing;
}

/**
 * A run through the REST run's pipeline, with its count: runTask with the RunRequest the REST route builds.
 * The routing arguments stand for the svc-* headers of the same meaning and win over them.
 */
async function run(context: ToolContext, args: RunArguments, count: RunCount): Promise<Record<string, unknown>> {
  const fromHeaders = runRequest(args.task_id, args.input, context.headers);
  const routing = args.routing ?? {};
  const request = {
    ...fromHeaders,
    only: routing.only?.join(',') ?? fromHeaders.only,
    order: routing.order?.join(',') ?? fromHeaders.order,
    sort: routing.sort ?? fromHeaders.sort,
    maxCost: routing.max_cost ?? fromHeaders.maxCost,
    zeroRetention: routing.zero_retention ?? fromHeaders.zeroRetention,
    idempotencyKey: args.idempotency_key ?? fromHeaders.idempotencyKey,
    // An agent retries the same call once its user has been to the approval page: that retry finds the approval.
    approvalByRetry: true,
  };
  const answer = await runTask(context.gateway, context.caller, request, count);
  return { ...answer.run };
}

const discoverTasks = toolWithArguments<{ job: string; limit: number }>({
  name: 'discover_tasks',
  title: 'Discover tasks',
  description:
    'Find the tasks that can do a job described in plain words; returns candidates best first (with ready: whether each can run now for this user), or near misses when none fits.',
  annotations: READS_GATEWAY,
  arguments: Joi.object({
    job: discoverFields.task.description('the job in plain words, e.g. "current weather in Paris"'),
    limit: discoverFields.limit.description('how many candidates at most'),
  }),
  call: async ({ gateway, caller, headers }, { job, limit }) => ({ ...(await discover(gateway, caller, { task: job, limit, principal: headers['svc-principal'] })) }),
});

const describeTask = toolWithArguments<{ task_id: string }>({
  name: 'describe_task',
  title: 'Describe a task',
  description:
    "Show a task's input schema, price, scopes and credential needs, and ready: whether it can run now for this user; call it before running a task you have not used yet.",
  annotations: READS_GATEWAY,
  arguments: Joi.object({ task_id: taskId().required() }),
  async call({ gateway, caller, headers }, { task_id: id }) {
    const principal = actingPrincipal(caller, headers['svc-principal']);
    const task = findActiveTask(gateway.catalog, id);
    const ready = await readiness(gateway, caller.organization.id, principal, [task]);
    return { ...presentTask(task, findProvider(gateway.catalog, task.provider)), ready: ready.get(task.id) };
  },
});

const runArguments = argumentsSchema(
  Joi.object({
    task_id: taskId().required(),
    input: Joi.object().unknown(true).required().description("the task's input, matching the input schema describe_task shows"),
    idempotency_key: fields.text(255).description('repeat a call with the same key and input to get the first answer back instead of running it twice'),
    routing: Joi.object({
      only: providerSlugs().description('run only on these providers'),
      order: providerSlugs().description('try the providers in this order'),
      sort: fields.oneOf('cost', 'latency', 'reliability').description('order the routes by cost, observed latency or observed reliability'),
      max_cost: fields.text(20).pattern(USD_DECIMAL).messages({ 'string.pattern.base': '{{#label}} must be a USD amount such as "0.005"' })
        .description('skip routes priced above this USD amount, a decimal string such as "0.005"'),
      zero_retention: Joi.boolean().description('only providers that keep no data, and the gateway stores no capture'),
    }).description('which interchangeable providers may answer, as the svc-* run headers say'),
  }),
);

/** run_task: its arguments are checked within the run's count, since a call with bad ones counts too. */
const runTool: Tool = {
  name: 'run_task',
  title: 'Run a task',
  description:
    'Run a task with an input matching its schema and get {output, receipt}; an error carrying connect_url or reconnect_url means the user must open that link to connect an account, and approval_url that they must approve this run there, then you retry the same call.',
  inputSchema: toJsonSchema(runArguments, 'json') as JsonSchema,
  // Any task may be asked for, so as much as the most any task does.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  call: (context, args) => asRun(context, (count) => run(context, checkedArguments<RunArguments>(runArguments, args), count)),
  taskOf: ({ gateway }, args) => (typeof args.task_id === 'string' ? gateway.catalog.tasks.get(args.task_id) : undefined),
};

/** The tools every MCP request lists. */
export const fixedTools: Tool[] = [discoverTasks, describeTask, runTool];

/** The receipt of a run as JSON Schema, from the record the API document describes it with. */
const RECEIPT_SCHEMA = (toJsonSchema(records.run.extract('receipt'), 'json') as { $defs: { Receipt: JsonSchema } }).$defs.Receipt;

/** `#/...` references of a schema placed at `at` inside another: they keep pointing where they did. */
function rebased(schema: unknown, at: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rebased(item, at));
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `#${at}${value.slice(1)}` : rebased(value, at)]),
  );
}

/** A pinned task's result, `{output, receipt}`, when the catalog says what the provider answers. */
function runResultSchema(task: Task): JsonSchema | undefined {
  if (!task.output) return undefined;
  return {
    type: 'object',
    properties: { output: rebased(task.output, '/properties/output'), receipt: RECEIPT_SCHEMA },
    required: ['output', 'receipt'],
  };
}

/**
 * A pinned task as a tool of its own: named by its id, its input schema as the tool's, its annotations from
 * the task's (utility tasks reach no third party), its output schema from the task's `output`; calling it is
 * run_task.
 */
export function pinnedTool(task: Task): Tool {
  const { read_only, destructive, idempotent } = task.annotations;
  const outputSchema = runResultSchema(task);
  return {
    name: task.id,
    title: task.title,
    description: `${task.title}: ${task.description} Runs the task ${task.id}; the arguments are its input.`,
    inputSchema: task.input,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: { readOnlyHint: read_only, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: task.kind !== 'utility' },
    call: (context, args) => asRun(context, (count) => run(context, { task_id: task.id, input: args }, count)),
    taskOf: () => task,
  };
}
