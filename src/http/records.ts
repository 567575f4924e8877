import Joi from 'joi';
import { TASK_KINDS } from '../domain/catalog/types.js';

/**
 * The records the API answers with, as joi schemas: one vocabulary every route's `response.status` is
 * built from, matching exactly what the domain's presenters return. They describe the answers in
 * /v1/openapi.json (src/http/openapi.ts) and are never checked per request (routes set `sample: 0`).
 * Each named record becomes a component of the document; `.id()` gives its name.
 */

const text = () => Joi.string();
const time = () => Joi.string().isoDate();
const nullable = <T extends Joi.Schema>(schema: T) => schema.allow(null);
const list = (items: Joi.Schema) => Joi.array().items(items);
const oneOf = (...values: string[]) => Joi.string().valid(...values);
/** Any JSON value, passed through unchanged (a provider's answer, a task's input). */
const anyJson = () => Joi.any().description('any JSON value');
const nextCursor = () => nullable(text()).required().description('the cursor of the next page, or null on the last one');
const record = (name: string, keys: Record<string, Joi.Schema>) => Joi.object(keys).options({ presence: 'required' }).id(name);

const taskSummaryKeys = {
  id: text(),
  provider: text(),
  capability: text(),
  kind: oneOf(...TASK_KINDS),
  title: text(),
  description: text(),
  price_usd: Joi.number(),
  status: oneOf('active', 'retired', 'broken'),
};
const taskSummary = record('TaskSummary', taskSummaryKeys);
const providerAuth = () => oneOf('none', 'api_key', 'oauth2');

const receipt = record('Receipt', {
  call_id: text(),
  identity: text(),
  principal: text(),
  quoted_usd: Joi.number(),
  charged_usd: Joi.number(),
  latency_ms: Joi.number(),
});

const call = record('Call', {
  id: text(),
  task: text(),
  provider: text(),
  principal: text(),
  token_id: nullable(text()),
  connection_id: nullable(text()),
  identity: nullable(text()),
  outcome: oneOf('hit', 'miss', 'fault', 'pending'),
  http_status: nullable(Joi.number().integer()),
  error_code: nullable(text()),
  quoted_usd: Joi.number(),
  charged_usd: Joi.number(),
  latency_ms: nullable(Joi.number()),
  tag: nullable(text()),
  approval_id: nullable(text()).description('the approval the call ran under, or the one it asked for when it answered approval_required'),
  created_at: time(),
  updated_at: time(),
});

const captureSides = () => list(oneOf('input', 'output'));
const capture = record('Capture', {
  call_id: text(),
  input: anyJson().description('the task input; a string holding the start of its JSON text when it is named in truncated'),
  output: anyJson().description('the provider answer; null when the call has none (miss, fault); a string holding the start of its JSON text when it is named in truncated'),
  created_at: time(),
  input_bytes: Joi.number().integer().description('the size of the input\'s whole JSON text in bytes'),
  output_bytes: nullable(Joi.number().integer()).description('the size of the output\'s whole JSON text in bytes'),
  truncated: captureSides().description('the sides longer than limits.max_capture_bytes, stored cut short'),
});

const connectionKeys = {
  id: text(),
  provider: text(),
  principal: text(),
  account_id: nullable(text()),
  label: nullable(text()),
  status: oneOf('active', 'needs_reauth', 'revoked'),
  scopes: list(text()),
  default: Joi.boolean(),
  created_at: time(),
  updated_at: time(),
  last_used_at: nullable(time()),
};
const connection = record('Connection', connectionKeys);

const grant = record('Grant', {
  id: text(),
  principal: text(),
  provider: text(),
  connection_id: text(),
  scopes: list(text()),
  state: oneOf('active', 'revoked'),
  created_at: time(),
  updated_at: time(),
});

const webhookKeys = { id: text(), url: text(), created_at: time() };
const webhook = record('Webhook', webhookKeys);

const connectSession = record('ConnectSession', {
  id: text(),
  status: oneOf('pending', 'completed', 'expired'),
  principal: text(),
  provider: text(),
  scopes: list(text()),
  redirect_uri: nullable(text()),
  connection_id: text().optional().description('present once the session is completed'),
  created_at: time(),
  expires_at: time(),
});

const heldToken = record('HeldUserBoundToken', { id: text(), principal: text(), expires_at: time(), issued_by: text() });

const providerSummary = record('ProviderSummary', {
  slug: text(),
  name: text(),
  description: nullable(text()),
  auth: providerAuth(),
  scopes: list(text()),
  zero_retention: Joi.boolean(),
  platform_credential: Joi.boolean(),
  task_count: Joi.number().integer(),
});

const organization = Joi.object({ id: text(), name: text(), display_name: text().description('what hosted pages call the organization') }).options({ presence: 'required' });

const matchedWords = () => list(text()).description("the job's words the task matched");

/** A route's documented answers by status; hapi never checks them per request (sample 0). */
export const answers = (status: Record<number, Joi.Schema>) => ({ status, sample: 0 });

export const records = {
  caller: Joi.alternatives()
    .try(
      record('KeyCaller', {
        organization,
        kind: oneOf('api_key'),
        key: Joi.object({ id: text(), role: oneOf('owner', 'admin', 'member') }).options({ presence: 'required' }),
        principal: oneOf('organization'),
      }),
      record('TokenCaller', {
        organization,
        kind: oneOf('user_token'),
        token: Joi.object({ id: text(), expires_at: time() }).options({ presence: 'required' }),
        principal: text(),
      }),
    )
    .id('Caller'),
  taskPage: record('TaskPage', { tasks: list(taskSummary), next_cursor: nextCursor() }),
  task: record('Task', {
    ...taskSummaryKeys,
    keywords: list(text()),
    scopes: list(text()).description('provider scopes an account connection needs for this task'),
    input: Joi.object().unknown(true).description('JSON Schema of the task input'),
    output: nullable(Joi.object().unknown(true)).description("JSON Schema of the provider's answer, or null when the catalog does not say; never used to refuse an answer"),
    annotations: Joi.object({ read_only: Joi.boolean(), destructive: Joi.boolean(), idempotent: Joi.boolean() })
      .options({ presence: 'required' })
      .description("what running the task does: only reads; may change or delete what exists; does no more when repeated (implied by its kind, or the catalog's)"),
    auth: providerAuth(),
    platform_credential: Joi.boolean(),
    zero_retention: Joi.boolean(),
  }),
  capability: record('Capability', { id: text(), tasks: list(taskSummary) }),
  discovery: record('Discovery', {
    candidates: list(
      record('Candidate', {
        ...taskSummaryKeys,
        score: Joi.number(),
        matched: matchedWords(),
        ready: Joi.boolean().optional().description('given when the request names a principal: whether the task can run for it now'),
      }),
    ),
    near_misses: list(
      record('NearMiss', { ...taskSummaryKeys, score: Joi.number(), matched: matchedWords(), missed: list(text()).description("the job's words it missed") }),
    ),
  }),
  run: record('Run', { output: anyJson().description("the provider's answer, unchanged"), receipt }),
  call,
  callList: record('CallList', { calls: list(call), next_cursor: nextCursor() }),
  capture,
  captureList: record('CaptureList', { captures: list(capture), next_cursor: nextCursor() }),
  usage: record('Usage', {
    days: Joi.number().integer().valid(1, 7, 30),
    token: nullable(text()),
    from: text().description('first UTC day counted (YYYY-MM-DD)'),
    to: text().description('last UTC day counted: today, so far'),
    per_day: list(Joi.object({ date: text(), calls: Joi.number().integer(), charged_usd: Joi.number() }).options({ presence: 'required' })),
    totals: Joi.object({ calls: Joi.number().integer(), charged_usd: Joi.number() }).options({ presence: 'required' }),
  }),
  connection,
  connectionDetail: record('ConnectionDetail', {
    ...connectionKeys,
    grants: list(
      Joi.object({ id: text(), scopes: list(text()), state: oneOf('active', 'revoked'), created_at: time(), updated_at: time() }).options({
        presence: 'required',
      }),
    ),
    last_call: nullable(
      Joi.object({ id: text(), task: text(), outcome: oneOf('hit', 'miss', 'fault', 'pending'), created_at: time() }).options({ presence: 'required' }),
    ),
  }),
  connectionList: record('ConnectionList', { connections: list(connection), next_cursor: nextCursor() }),
  grantList: record('GrantList', { grants: list(grant), next_cursor: nextCursor() }),
  principalList: record('PrincipalList', {
    principals: list(
      record('PrincipalUse', {
        principal: text(),
        first_seen_at: time(),
        last_seen_at: time(),
        connections: Joi.number().integer().description('connections of the principal that are not revoked'),
      }),
    ),
    next_cursor: nextCursor(),
  }),
  connectSessionCreated: record('ConnectSessionCreated', {
    session_id: text(),
    url: text().description('the hosted consent link: secret, single use, valid until expires_at'),
    expires_at: time(),
  }),
  connectSession,
  connectSessionList: record('ConnectSessionList', { sessions: list(connectSession), next_cursor: nextCursor() }),
  connectionsPageCreated: record('ConnectionsPageCreated', { url: text(), expires_at: time() }),
  redirectAllowlist: record('RedirectAllowlist', { redirect_uris: list(text()) }),
  providerSummary,
  providerList: record('ProviderList', { providers: list(providerSummary) }),
  oauthApp: record('OAuthApp', {
    provider: text(),
    client_id: text(),
    scopes: list(text()),
    created_at: time(),
    updated_at: time(),
    redirect_uri: text().description("the callback to register in the app's settings at the provider"),
  }),
  webhook,
  webhookCreated: record('WebhookCreated', { ...webhookKeys, secret: text().description('the signing secret, shown only here') }),
  webhookList: record('WebhookList', { webhooks: list(webhook) }),
  webhookDeliveryList: record('WebhookDeliveryList', {
    deliveries: list(
      record('WebhookDelivery', {
        id: text(),
        event_id: text(),
        event: oneOf('connection.created', 'connection.needs_reauth', 'connection.revoked', 'connection.restored', 'connection.expiring'),
        state: oneOf('pending', 'delivered', 'failed'),
        attempts: Joi.number().integer(),
        last_status: nullable(Joi.number().integer()),
        last_error: nullable(text()),
        created_at: time(),
        updated_at: time(),
      }),
    ),
  }),
  userBoundToken: record('UserBoundToken', {
    id: text(),
    token: text().description('the secret value, shown only here'),
    principal: text(),
    expires_at: time(),
  }),
  heldTokens: record('HeldUserBoundTokens', { tokens: list(heldToken), next_cursor: nextCursor() }),
  approvalPolicy: record('ApprovalPolicy', {
    kinds: list(oneOf(...TASK_KINDS)).description('task kinds whose runs need approval'),
    tasks: list(text()).description('task id patterns whose runs need approval (* stands for any characters)'),
    over_usd: nullable(Joi.number()).description('only runs quoted above this USD price need approval; null: any price'),
  }),
  approvals: record('ApprovalList', {
    approvals: list(
      record('Approval', {
        id: text(),
        task_id: text(),
        principal: text(),
        status: oneOf('pending', 'approved', 'declined'),
        price_usd: Joi.number(),
        created_at: time(),
        expires_at: time(),
        decided_at: nullable(time()),
        used_at: nullable(time()).description('when a run used it; an approval runs one call'),
      }),
    ),
    next_cursor: nextCursor(),
  }),
  openapiDocument: Joi.object().unknown(true).description('this OpenAPI 3.1 document'),
  metrics: Joi.string().description('the Prometheus text exposition').meta({ 'x-media-type': 'text/plain' }),
  /** A hosted page for a browser (text/html). */
  page: Joi.string().description('an HTML page for a browser').meta({ 'x-media-type': 'text/html' }),
  /** A 303 to the next step of a browser flow; no body. */
  seeOther: Joi.any().forbidden().description('a redirect to the Location header'),
  /** An answer with no body. */
  empty: Joi.any().forbidden().description('no body'),
};

/** The body of every error (application/problem+json); recovery members appear where they apply. */
export const problemRecord = Joi.object({
  type: Joi.string().required().description('<public url>/problems/<code>'),
  title: Joi.string().required(),
  status: Joi.number().integer().required(),
  detail: Joi.string().required(),
  code: Joi.string().required(),
  connect_url: Joi.string().description('grant_required, scope_required: the consent link to open'),
  reconnect_url: Joi.string().description('connection_invalid: the link to sign in again on the same account'),
  candidates: Joi.array()
    .items(Joi.object({ id: Joi.string(), label: Joi.string().allow(null), account_id: Joi.string().allow(null) }).options({ presence: 'required' }))
    .description('connection_ambiguous: the connections to choose from'),
  invalid_params: Joi.array()
    .items(Joi.object({ name: Joi.string(), reason: Joi.string() }).options({ presence: 'required' }))
    .description('invalid_input: each bad field and why'),
  call_id: Joi.string().description('run errors: the call recorded in the audit'),
  catalog_version: Joi.string().description('catalog_version_mismatch: the version this gateway serves'),
  approval_id: Joi.string().description('approval_required, approval_mismatch, approval_declined: the approval (send it as svc-approval once approved)'),
  approval_url: Joi.string().description('approval_required: the page where the end user approves or declines the run'),
  expires_at: Joi.string().description('approval_required: when the approval expires (approvals.ttl_s)'),
})
  .unknown(true)
  .id('Problem');
