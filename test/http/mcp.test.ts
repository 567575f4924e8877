import { Ajv } from 'ajv';
import { expect } from 'chai';
import { pino } from 'pino';
import { startRunFakes } from '../fixtures/run-providers.js';
import { createHarness, eachDialect, problem, type Harness } from '../support/harness.js';
import { dialects } from '../support/databases.js';
import { setOrganizationStatus, setTrustedOrigins } from '../../src/domain/organizations.js';
import { issueUserToken } from '../../src/domain/tokens.js';
import { connectionIn } from '../support/builders.js';

const fakes = await startRunFakes();
after(() => fakes.close());

/** What every MCP client sends: both media types in Accept, a JSON body. */
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

const METRICS_TOKEN = 'metrics-token-of-the-mcp-tests';

/** Runs a minute of each user principal here: enough for these tests, few enough to use up in one. */
const PER_PRINCIPAL_RUNS = 4;

let nextId = 1;

/**
 * A protocol generation as a client speaks it: the earlier revisions (no envelope; this endpoint needs no
 * initialize first) or 2026-07-28 (the `_meta` envelope on every request and the headers naming the method).
 */
interface Generation {
  name: string;
  /** Suffix for principals a test uses up (run budgets), so each generation starts fresh. */
  key: string;
  modern: boolean;
}

const EARLIER: Generation = { name: 'revision 2025-11-25', key: 'earlier', modern: false };
const MODERN: Generation = { name: 'revision 2026-07-28', key: 'modern', modern: true };
const GENERATIONS = [EARLIER, MODERN];

/** What a 2026-07-28 client says of itself on every request. */
const envelope = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

interface RpcOptions {
  headers?: Record<string, string | null>;
  url?: string;
  generation?: Generation;
  /** The client capabilities a 2026-07-28 request declares. */
  capabilities?: Record<string, unknown>;
  /** The request's id, when a test needs it to be the same across requests. */
  id?: number;
}

function rpc(h: Harness, method: string, params: Record<string, unknown>, options: RpcOptions = {}) {
  const modern = options.generation?.modern ?? false;
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return h.request({
    method: 'POST',
    url: options.url ?? '/v1/mcp',
    payload: JSON.stringify({ jsonrpc: '2.0', id: options.id ?? nextId++, method, params: modern ? { ...params, _meta: envelope(options.capabilities) } : params }),
    headers: { ...MCP_HEADERS, ...(modern ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name } : {}), ...options.headers },
  });
}

async function callTool(h: Harness, name: string, args: unknown, headers: Record<string, string | null> = {}, generation = EARLIER) {
  const res = await rpc(h, 'tools/call', { name, arguments: args }, { headers, generation });
  expect(res.statusCode, res.payload).to.equal(200);
  expect(res.json.error, res.payload).to.equal(undefined);
  const result = res.json.result;
  // The structured answer and the one text content always say the same.
  expect(result.content).to.have.length(1);
  expect(JSON.parse(result.content[0].text)).to.deep.equal(result.structuredContent);
  return result as { isError?: boolean; structuredContent: any };
}

function toolProblem(result: { isError?: boolean; structuredContent: any }, status: number, code: string) {
  expect(result.isError, JSON.stringify(result)).to.equal(true);
  expect(result.structuredContent).to.include({ status, code });
  for (const member of ['type', 'title', 'detail']) expect(result.structuredContent).to.have.property(member);
  return result.structuredContent;
}

eachDialect(
  'MCP endpoint over HTTP: transport, auth, pinned tasks, tool errors',
  (h) => {
    beforeEach(() => fakes.reset());

    it('initializes statelessly: no session id, the server info and instructions for a model', async () => {
      const res = await rpc(h(), 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
      expect(res.statusCode, res.payload).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.headers['mcp-session-id']).to.equal(undefined);
      expect(res.headers['svc-catalog-version']).to.equal(h().gateway.catalog.version);
      const { result } = res.json;
      expect(result.protocolVersion).to.equal('2025-11-25');
      expect(result.capabilities).to.have.property('tools');
      expect(result.serverInfo.name).to.equal('task-gateway');
      expect(result.instructions).to.include('discover_tasks').and.include('describe_task').and.include('connect_url');
    });

    it('answers plain JSON clients: no Accept, */* or application/json alone; refuses one that takes no JSON', async () => {
      for (const accept of [null, '*/*', 'application/json', 'application/json; charset=utf-8', 'text/plain, application/*;q=0.5']) {
        const res = await rpc(h(), 'tools/list', {}, { headers: { accept } });
        expect(res.statusCode, `${accept}: ${res.payload}`).to.equal(200);
        expect(res.json.result.tools).to.have.length(3);
      }
      // Refused: no JSON at all, or JSON weighed at q=0 (what a client says it will not take).
      for (const accept of ['text/html', 'text/event-stream', 'application/json;q=0', 'application/json;q=0, text/event-stream', '*/*;q=0']) {
        const refused = await rpc(h(), 'tools/list', {}, { headers: { accept } });
        expect([refused.statusCode, refused.json.error.code], accept).to.deep.equal([406, -32000]);
      }
    });

    it('negotiates an earlier protocol version the client asks for', async () => {
      const res = await rpc(h(), 'initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } });
      expect(res.json.result.protocolVersion).to.equal('2025-03-26');
    });

    it('pins up to 20 tasks; more, unknown, retired or broken ids are 400 problem+json before any MCP', async () => {
      const active = [...h().gateway.catalog.tasks.values()].filter((t) => t.status === 'active').map((t) => t.id);
      const twenty = await rpc(h(), 'tools/list', {}, { url: `/v1/mcp?tasks=${active.slice(0, 20).join(',')}` });
      expect(twenty.json.result.tools).to.have.length(23);

      const over = problem(await rpc(h(), 'tools/list', {}, { url: `/v1/mcp?tasks=${active.slice(0, 21).join(',')}` }), 400, 'invalid_input');
      expect(over.invalid_params[0].name).to.equal('query.tasks');
      const unknown = problem(await rpc(h(), 'tools/list', {}, { url: '/v1/mcp?tasks=rt-open.weather.now,nope.task' }), 400, 'invalid_input');
      expect(unknown.invalid_params).to.deep.equal([{ name: 'query.tasks', reason: 'no task nope.task' }]);
      const retired = problem(await rpc(h(), 'initialize', {}, { url: '/v1/mcp?tasks=rt-open.old.get,rt-open.bad.get' }), 400, 'invalid_input');
      expect(retired.invalid_params.map((p: { reason: string }) => p.reason)).to.deep.equal(['task rt-open.old.get is retired', 'task rt-open.bad.get is broken']);
      // Counted as given: 21 ids are too many even when they are one id repeated; a repeat or an empty entry is refused.
      const repeated = problem(await rpc(h(), 'tools/list', {}, { url: `/v1/mcp?tasks=${Array(21).fill('rt-open.weather.now').join(',')}` }), 400, 'invalid_input');
      expect(repeated.invalid_params).to.deep.equal([{ name: 'query.tasks', reason: '21 task ids given; at most 20 can be pinned' }]);
      const twice = problem(await rpc(h(), 'tools/list', {}, { url: '/v1/mcp?tasks=rt-open.weather.now,rt-open.weather.now' }), 400, 'invalid_input');
      expect(twice.invalid_params).to.deep.equal([{ name: 'query.tasks', reason: 'task rt-open.weather.now is named more than once' }]);
      for (const list of [',,,', 'rt-open.weather.now,', ',rt-open.weather.now', ' , ']) {
        const empty = problem(await rpc(h(), 'tools/list', {}, { url: `/v1/mcp?tasks=${encodeURIComponent(list)}` }), 400, 'invalid_input');
        expect(empty.invalid_params[0].reason, list).to.match(/an empty task id/);
      }
      problem(await rpc(h(), 'tools/list', {}, { url: '/v1/mcp?tasks=' }), 400, 'invalid_input');
      problem(await rpc(h(), 'tools/list', {}, { url: '/v1/mcp?other=1' }), 400, 'invalid_input');
    });

    it('logs and counts its answers with their status', async () => {
      const original = h().gateway.log;
      const lines: string[] = [];
      h().gateway.log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
      try {
        await rpc(h(), 'tools/list', {});
      } finally {
        h().gateway.log = original;
      }
      const logged = lines.map((line) => JSON.parse(line)).find((line) => line.path === '/v1/mcp');
      expect(logged).to.include({ method: 'POST', status: 200, org: h().organizationId });
      const metrics = await h().server.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.payload).to.match(/gateway_http_requests_total\{route="\/v1\/mcp",method="POST",status="200"\} [1-9]/);
    });

    it('answers GET, DELETE, PUT and PATCH with 405 problem+json naming POST', async () => {
      for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
        const res = await h().request({ method, url: '/v1/mcp', headers: { accept: 'text/event-stream' } });
        problem(res, 405, 'method_not_allowed');
        expect(res.headers.allow).to.equal('POST');
      }
    });

    it('answers 401 with WWW-Authenticate: Bearer without a credential or with a bad one', async () => {
      const none = await rpc(h(), 'tools/list', {}, { headers: { authorization: null } });
      problem(none, 401, 'unauthenticated');
      expect(none.headers['www-authenticate']).to.equal('Bearer');
      const bad = await rpc(h(), 'tools/list', {}, { headers: { authorization: 'Bearer gw_live_not-a-key' } });
      problem(bad, 401, 'invalid_token');
      expect(bad.headers['www-authenticate']).to.equal('Bearer');
      // The REST routes share the one strategy and its challenge.
      expect((await h().request({ method: 'GET', url: '/v1/me', headers: { authorization: null } })).headers['www-authenticate']).to.equal('Bearer');
    });

    it('serves a browser on a trusted origin: the preflight allows the MCP and svc-* headers, the answer the origin', async () => {
      const origin = 'https://agent.example';
      await setTrustedOrigins(h().gateway, 'default', [origin]);
      try {
        const preflight = await h().request({
          method: 'OPTIONS',
          url: '/v1/mcp',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version, svc-principal, svc-tag' },
        });
        expect(preflight.statusCode).to.be.oneOf([200, 204]);
        expect(preflight.headers['access-control-allow-origin']).to.equal(origin);
        expect(String(preflight.headers['access-control-allow-headers'])).to.include('mcp-protocol-version').and.include('svc-principal');
        const res = await rpc(h(), 'tools/list', {}, { headers: { origin, 'mcp-protocol-version': '2025-11-25' } });
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.headers['access-control-allow-origin']).to.equal(origin);
        expect(res.headers['access-control-expose-headers']).to.include('svc-catalog-version');
      } finally {
        await setTrustedOrigins(h().gateway, 'default', []);
      }
    });

    it('keeps the organization checks of REST: untrusted origins and suspended organizations', async () => {
      problem(await rpc(h(), 'tools/list', {}, { headers: { origin: 'https://evil.example' } }), 403, 'untrusted_origin');
      await setOrganizationStatus(h().gateway, 'default', 'suspended');
      try {
        problem(await rpc(h(), 'tools/list', {}), 403, 'no_active_organization');
      } finally {
        await setOrganizationStatus(h().gateway, 'default', 'active');
      }
    });

    it('takes malformed JSON, a wrong content type and an oversized body through the problem+json path', async () => {
      const post = (payload: string, headers: Record<string, string> = {}) => h().request({ method: 'POST', url: '/v1/mcp', payload, headers: { ...MCP_HEADERS, ...headers } });
      problem(await post('{"jsonrpc": "2.0", "id": 1,'), 400, 'invalid_input');
      problem(await post(''), 400, 'invalid_input');
      problem(await post('"just a string"'), 400, 'invalid_input');
      problem(await post('{}', { 'content-type': 'text/plain' }), 400, 'invalid_input');
      const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_task', arguments: { task_id: 'rt-open.weather.now', input: { city: 'x'.repeat(1048576) } } } });
      problem(await post(huge), 413, 'payload_too_large');
      expect(fakes.open.requests).to.have.length(0);
    });

    it('answers protocol faults as JSON-RPC errors: not JSON-RPC, an unknown method, an unknown tool', async () => {
      const notRpc = await h().request({ method: 'POST', url: '/v1/mcp', payload: '{"hello": "world"}', headers: MCP_HEADERS });
      expect(notRpc.statusCode).to.equal(400);
      expect(notRpc.headers['content-type']).to.match(/^application\/json/);
      expect(notRpc.json.jsonrpc).to.equal('2.0');
      expect(notRpc.json.error.code).to.equal(-32600);
      const unknownMethod = await rpc(h(), 'resources/list', {});
      expect(unknownMethod.json.error.code).to.equal(-32601);
      const unknownTool = await rpc(h(), 'tools/call', { name: 'delete_everything', arguments: {} });
      expect(unknownTool.json.error.code).to.equal(-32602);
      expect(unknownTool.json.error.message).to.include('delete_everything');
    });

    it('keeps the protocol rules of a POST: batches in order up to 100, initialize alone, known protocol versions, 202 for notifications', async () => {
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        h().request({ method: 'POST', url: '/v1/mcp', payload: JSON.stringify(body), headers: { ...MCP_HEADERS, ...headers } });
      const request = (id: number, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params });
      const initialize = request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } });

      const pair = await post([request(7, 'tools/list'), { jsonrpc: '2.0', method: 'notifications/initialized' }, request(3, 'ping')]);
      expect(pair.statusCode, pair.payload).to.equal(200);
      expect(pair.json.map((response: { id: number }) => response.id)).to.deep.equal([7, 3]);
      expect(pair.json[0].result.tools).to.have.length(3);
      const full = await post(Array.from({ length: 100 }, (_, i) => request(i + 1, 'ping')));
      expect(full.json).to.have.length(100);
      const tooMany = await post(Array.from({ length: 101 }, (_, i) => request(i + 1, 'ping')));
      expect([tooMany.statusCode, tooMany.json.error.code]).to.deep.equal([400, -32600]);
      const empty = await post([]);
      expect([empty.statusCode, empty.json.error.code]).to.deep.equal([400, -32600]);

      const initializeAndMore = await post([initialize, request(2, 'ping')]);
      expect([initializeAndMore.statusCode, initializeAndMore.json.error.code]).to.deep.equal([400, -32600]);
      const unknownVersion = await post(request(4, 'tools/list'), { 'mcp-protocol-version': '1999-01-01' });
      expect([unknownVersion.statusCode, unknownVersion.json.error.code]).to.deep.equal([400, -32000]);
      expect(unknownVersion.json.error.message).to.include('2025-11-25');
      // An initialize request brings its version in its params; the header is not yet negotiated.
      expect((await post(initialize, { 'mcp-protocol-version': '1999-01-01' })).statusCode).to.equal(200);

      // Not a JSON-RPC 2.0 request the protocol takes (each would otherwise go unanswered): another version, a
      // fractional id, params that are not an object, a member JSON-RPC does not have, a bad _meta; a response without
      // an id; a batch holding one of those, or a 2026-07-28 request (that revision has no batches).
      for (const bad of [
        { jsonrpc: '1.0', id: 5, method: 'ping' },
        { jsonrpc: '2.0', id: 1.5, method: 'ping' },
        { jsonrpc: '2.0', id: 6, method: 'ping', params: 'none' },
        { jsonrpc: '2.0', id: 6, method: 'tools/list', params: [] },
        { jsonrpc: '2.0', id: 6, method: 'tools/list', foo: 1 },
        { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: 5 } },
        { jsonrpc: '2.0', result: {} },
        [request(1, 'ping'), { jsonrpc: '2.0', id: 2, method: 'ping', foo: 1 }],
        [request(1, 'ping'), request(2, 'tools/list', { _meta: envelope() })],
      ]) {
        const refused = await post(bad);
        expect([refused.statusCode, refused.json.error.code], JSON.stringify(bad)).to.deep.equal([400, -32600]);
      }
      const notification = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect([notification.statusCode, notification.payload]).to.deep.equal([202, '']);
    });

    it('serves 2026-07-28 without initialize: server/discover advertises the revisions, the tools and the instructions', async () => {
      const res = await rpc(h(), 'server/discover', {}, { generation: MODERN });
      expect(res.statusCode, res.payload).to.equal(200);
      expect(res.headers['mcp-session-id']).to.equal(undefined);
      const { result } = res.json;
      expect(result.supportedVersions).to.include('2026-07-28');
      expect(result.capabilities).to.have.property('tools');
      expect(result.instructions).to.include('discover_tasks').and.include('connect_url');
      expect(result._meta['io.modelcontextprotocol/serverInfo'].name).to.equal('task-gateway');
      // A 2026-07-28 request stands alone: no initialize came before these.
      expect((await rpc(h(), 'tools/list', {}, { generation: MODERN })).json.result.tools).to.have.length(3);
    });

    it('answers 2026-07-28 protocol faults as the SDK does: no envelope, a header the body contradicts, an unknown method', async () => {
      const post = (body: unknown, headers: Record<string, string>) => h().request({ method: 'POST', url: '/v1/mcp', payload: JSON.stringify(body), headers: { ...MCP_HEADERS, ...headers } });
      const modernHeaders = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
      const noEnvelope = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, modernHeaders);
      expect([noEnvelope.statusCode, noEnvelope.json.error.code]).to.deep.equal([400, -32602]);
      const contradicted = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope() } }, { ...modernHeaders, 'mcp-method': 'tools/call' });
      expect(contradicted.statusCode).to.equal(400);
      expect(contradicted.json.error.message).to.match(/Mcp-Method/);
      const unknown = await rpc(h(), 'resources/list', {}, { generation: MODERN });
      expect(unknown.json.error.code).to.equal(-32601);
      // An initialize naming 2026-07-28 in the header is neither revision's.
      const initialize = await post({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, modernHeaders);
      expect(initialize.statusCode).to.equal(400);
    });

    it('answers a 2026-07-28 tools/call alike whether the long-lived server or the SDK handler serves it (an Mcp-Name in Base64 form goes to the latter)', async () => {
      const args = { name: 'describe_task', arguments: { task_id: 'rt-open.weather.now' } };
      const plain = await rpc(h(), 'tools/call', args, { generation: MODERN, id: 5 });
      const encoded = await rpc(h(), 'tools/call', args, { generation: MODERN, id: 5, headers: { 'mcp-name': `=?base64?${Buffer.from('describe_task').toString('base64')}?=` } });
      expect(plain.json.result.isError, plain.payload).to.equal(undefined);
      expect([encoded.statusCode, encoded.headers['content-type'], encoded.payload]).to.deep.equal([plain.statusCode, plain.headers['content-type'], plain.payload]);
    });

    it('asks a 2026-07-28 client that takes URL elicitations to send its user to the connect link, and runs on the retry', async () => {
      const asUser = { 'svc-principal': 'user:elicited' };
      const args = { name: 'run_task', arguments: { task_id: 'rt-oauth.inbox.list', input: {} } };
      const urlMode = { elicitation: { url: {} } };
      const first = await rpc(h(), 'tools/call', args, { generation: MODERN, capabilities: urlMode, headers: asUser });
      expect(first.statusCode, first.payload).to.equal(200);
      const { result } = first.json;
      expect(result.resultType).to.equal('input_required');
      const asked = result.inputRequests.user_visit;
      expect(asked.method).to.equal('elicitation/create');
      expect(asked.params).to.include({ mode: 'url' });
      expect(asked.params.url).to.match(/^http:\/\/gateway\.test\/v1\/hosted\/connect\//);
      expect(asked.params.message).to.include('connect your account').and.include('List the inbox');

      // The user declines: the retry answers the problem, which an agent reads as on the earlier revisions.
      const declined = await rpc(h(), 'tools/call', { ...args, inputResponses: { user_visit: { action: 'decline' } } }, { generation: MODERN, capabilities: urlMode, headers: asUser });
      expect(toolProblem(declined.json.result, 403, 'grant_required').connect_url).to.equal(asked.params.url);

      // Without URL elicitation (form only, or none), and on the earlier revisions, the answer is the isError problem.
      // (Another principal: each run counts against the principal's run budget.)
      const plainUser = { 'svc-principal': 'user:not-elicited' };
      for (const capabilities of [{}, { elicitation: {} }]) {
        const plain = await rpc(h(), 'tools/call', args, { generation: MODERN, capabilities, headers: plainUser });
        expect(toolProblem(plain.json.result, 403, 'grant_required').connect_url).to.match(/\/v1\/hosted\/connect\//);
      }
      toolProblem((await rpc(h(), 'tools/call', args, { headers: plainUser })).json.result, 403, 'grant_required');

      // The user connects (as the hosted consent flow ends: a consented connection); the client's retry runs.
      const credential = { type: 'oauth2' as const, access_token: 'elicited-token', scopes: ['mail.read'] };
      await connectionIn(h().gateway, { organizationId: h().organizationId, principal: 'user:elicited', provider: 'rt-oauth', scopes: ['mail.read'], credential });
      fakes.oauth.on('GET', '/inbox', { json: [{ subject: 'hello' }] });
      const retried = await rpc(h(), 'tools/call', { ...args, inputResponses: { user_visit: { action: 'accept' } } }, { generation: MODERN, capabilities: urlMode, headers: asUser });
      expect(retried.json.result.resultType).to.equal('complete');
      expect(retried.json.result.structuredContent.output).to.deep.equal([{ subject: 'hello' }]);
      expect(retried.json.result.structuredContent.receipt.principal).to.equal('user:elicited');
    });


    for (const generation of GENERATIONS) {
      describe(`tools on ${generation.name}`, () => {
        const call = (name: string, args: unknown, headers: Record<string, string | null> = {}) => callTool(h(), name, args, headers, generation);
        const send = (method: string, params: Record<string, unknown>, options: RpcOptions = {}) => rpc(h(), method, params, { generation, ...options });

        it('lists the three tools with JSON Schema inputs carrying the REST limits', async () => {
          const res = await send('tools/list', {});
          const tools = res.json.result.tools as Array<{ name: string; description: string; inputSchema: any }>;
          expect(tools.map((t) => t.name)).to.deep.equal(['discover_tasks', 'describe_task', 'run_task']);
          for (const tool of tools) {
            expect(tool.description).to.be.a('string').and.not.include('\n');
            expect(tool.inputSchema.type).to.equal('object');
            expect(tool.inputSchema.additionalProperties).to.equal(false);
          }
          const [discover, describe, run] = tools;
          expect(discover.inputSchema.required).to.deep.equal(['job']);
          expect(discover.inputSchema.properties.job).to.include({ type: 'string', maxLength: 500 });
          expect(discover.inputSchema.properties.limit).to.include({ type: 'integer', minimum: 1, maximum: 50 });
          expect(describe.inputSchema.required).to.deep.equal(['task_id']);
          expect(run.inputSchema.required).to.deep.equal(['task_id', 'input']);
          expect(run.inputSchema.properties.idempotency_key).to.include({ maxLength: 255 });
          expect(Object.keys(run.inputSchema.properties.routing.properties)).to.deep.equal(['only', 'order', 'sort', 'max_cost', 'zero_retention']);
          expect(run.inputSchema.properties.routing.properties.sort.enum).to.deep.equal(['cost', 'latency', 'reliability']);
          // What each does, for a host deciding when to ask its user: the gateway's readers read; run_task may do anything a task does.
          const reads = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
          expect(res.json.result.tools.map((t: { annotations: unknown }) => t.annotations)).to.deep.equal([
            reads,
            reads,
            { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
          ]);
        });

        it("annotates pinned tasks from their kind and the catalog, and gives the task's output as the outputSchema of {output, receipt}", async () => {
          const pinned = ['rt-open.weather.now', 'rt-paid.order.place', 'rt-oauth.inbox.list', 'builtin.units.convert'];
          const res = await send('tools/list', {}, { url: `/v1/mcp?tasks=${pinned.join(',')}` });
          const tools = (res.json.result.tools as Array<{ name: string; annotations: unknown; outputSchema?: any }>).slice(3);
          expect(tools.map((t) => [t.name, t.annotations])).to.deep.equal([
            ['rt-open.weather.now', { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }],
            ['rt-paid.order.place', { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }],
            ['rt-oauth.inbox.list', { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }],
            ['builtin.units.convert', { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }],
          ]);
          expect(tools.slice(0, 3).map((t) => t.outputSchema), 'tasks whose catalog entry says nothing of the answer').to.deep.equal([undefined, undefined, undefined]);
          const { outputSchema } = tools[3];
          expect(outputSchema.required).to.deep.equal(['output', 'receipt']);
          expect(outputSchema.properties.output).to.deep.equal(h().gateway.catalog.tasks.get('builtin.units.convert')!.output);
          expect(outputSchema.properties.receipt.required).to.deep.equal(['call_id', 'identity', 'principal', 'quoted_usd', 'charged_usd', 'latency_ms']);

          // The result fits the schema the tool lists.
          const ran = await send('tools/call', { name: 'builtin.units.convert', arguments: { value: 1, from: 'km', to: 'm' } }, { url: '/v1/mcp?tasks=builtin.units.convert' });
          const validate = new Ajv({ strict: false }).compile(outputSchema);
          expect(validate(ran.json.result.structuredContent), JSON.stringify(validate.errors)).to.equal(true);
          expect(ran.json.result.structuredContent.output.result).to.equal(1000);
        });

        it('lists pinned tasks as tools named by their ids with their input schemas, and runs them', async () => {
          const res = await send('tools/list', {}, { url: '/v1/mcp?tasks=rt-open.weather.now,rt-open.things.get' });
          expect(res.statusCode, res.payload).to.equal(200);
          const tools = res.json.result.tools as Array<{ name: string; inputSchema: unknown }>;
          expect(tools.map((t) => t.name)).to.deep.equal(['discover_tasks', 'describe_task', 'run_task', 'rt-open.weather.now', 'rt-open.things.get']);
          expect(tools[3].inputSchema).to.deep.equal(h().gateway.catalog.tasks.get('rt-open.weather.now')!.input);

          fakes.open.on('GET', '/weather/Lima', { json: { temp: 19 } });
          const called = await send('tools/call', { name: 'rt-open.weather.now', arguments: { city: 'Lima' } }, { url: '/v1/mcp?tasks=rt-open.weather.now' });
          expect(called.json.result.structuredContent.output).to.deep.equal({ temp: 19 });
          expect(called.json.result.structuredContent.receipt.identity).to.equal('anonymous');

          const bad = await send('tools/call', { name: 'rt-open.weather.now', arguments: { city: 7 } }, { url: '/v1/mcp?tasks=rt-open.weather.now' });
          expect(toolProblem(bad.json.result, 400, 'invalid_input').invalid_params).to.deep.equal([{ name: 'city', reason: 'must be string' }]);
          expect(fakes.open.requests).to.have.length(1);
        });

        it('turns bad arguments into isError results with the invalid_input problem naming each argument', async () => {
          const wrongTypes = toolProblem(await call('discover_tasks', { job: 42, limit: 'many' }), 400, 'invalid_input');
          expect(wrongTypes.invalid_params.map((p: { name: string }) => p.name)).to.deep.equal(['arguments.job', 'arguments.limit']);
          expect(wrongTypes.type).to.equal('http://gateway.test/problems/invalid_input');
          toolProblem(await call('discover_tasks', {}), 400, 'invalid_input');
          toolProblem(await call('discover_tasks', { job: 'x'.repeat(501) }), 400, 'invalid_input');
          toolProblem(await call('discover_tasks', { job: 'weather', limit: 51 }), 400, 'invalid_input');
          toolProblem(await call('discover_tasks', { job: 'weather\u0000now' }), 400, 'invalid_input');
          toolProblem(await call('describe_task', { task_id: 'rt-open.weather.now', extra: true }), 400, 'invalid_input');
          toolProblem(await call('run_task', { task_id: 'rt-open.weather.now' }), 400, 'invalid_input');
          toolProblem(await call('run_task', { task_id: 'rt-open.weather.now', input: [1, 2] }), 400, 'invalid_input');
          const routing = toolProblem(
            await call('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Rome' }, routing: { only: ['Not A Slug'], sort: 'fastest', max_cost: 0.5 } }),
            400,
            'invalid_input',
          );
          expect(routing.invalid_params.map((p: { name: string }) => p.name)).to.deep.equal(['arguments.routing.only.0', 'arguments.routing.sort', 'arguments.routing.max_cost']);
          // Limits just under and just over: a 500-character job, routing lists of 1000 and 1001 characters joined.
          expect((await call('discover_tasks', { job: 'w'.repeat(500) })).isError).to.equal(undefined);
          const slugs = (long: number) => [...Array.from({ length: long }, () => 'p'.repeat(100)), ...Array.from({ length: 10 - long }, () => 'q'.repeat(99))];
          toolProblem(await call('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Rome' }, routing: { only: slugs(1) } }), 404, 'miss');
          const joined = toolProblem(await call('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Rome' }, routing: { only: slugs(2) } }), 400, 'invalid_input');
          expect(joined.invalid_params[0].name).to.equal('arguments.routing.only');
          const input = toolProblem(await call('run_task', { task_id: 'rt-open.weather.now', input: { city: '' } }), 400, 'invalid_input');
          expect(input.invalid_params).to.deep.equal([{ name: 'city', reason: 'must NOT have fewer than 1 characters' }]);
          expect(fakes.open.requests).to.have.length(0);
        });

        it('answers a tools/call whose name is not text or whose arguments are not an object with -32602 invalid params', async () => {
          for (const [params, message] of [
            [{ name: 'run_task', arguments: [1] }, 'Invalid params: arguments must be an object'],
            [{ name: 'run_task', arguments: 'Paris' }, 'Invalid params: arguments must be an object'],
            [{ name: 'run_task', arguments: null }, 'Invalid params: arguments must be an object'],
            [{ name: {}, arguments: {} }, 'Invalid params: name must be the name of a tool (a string)'],
            [{ arguments: {} }, 'Invalid params: name must be the name of a tool (a string)'],
          ] as const) {
            const res = await send('tools/call', params);
            expect(res.statusCode, res.payload).to.equal(200);
            expect(res.json.error, JSON.stringify(params)).to.deep.equal({ code: -32602, message });
          }
          expect(fakes.open.requests).to.have.length(0);
        });

        it('holds a task input to the nesting limit REST holds it to, not counting the JSON-RPC request around it', async () => {
          const nested = (levels: number): unknown => (levels === 0 ? 'leaf' : [nested(levels - 1)]);
          // The input object is level 1, so a document of 63 arrays is 64 levels: the most a run takes.
          const input = (levels: number) => ({ document: nested(levels), path: '/0' });
          const rest = await h().request({ method: 'POST', url: '/v1/tasks/builtin.json.extract/run', payload: input(63) });
          expect(rest.statusCode, rest.payload).to.equal(200);
          const within = await call('run_task', { task_id: 'builtin.json.extract', input: input(63) });
          expect(within.isError, JSON.stringify(within)).to.equal(undefined);
          expect(within.structuredContent.output).to.deep.equal(rest.json.output);
          const over = await send('tools/call', { name: 'run_task', arguments: { task_id: 'builtin.json.extract', input: input(64) } });
          expect(problem(over, 400, 'invalid_input').detail).to.match(/nested deeper than/);
        });

        it('answers unknown, retired and broken tasks as isError results with their problems', async () => {
          toolProblem(await call('describe_task', { task_id: 'nope.task' }), 404, 'task_not_found');
          toolProblem(await call('describe_task', { task_id: 'rt-open.old.get' }), 410, 'task_retired');
          toolProblem(await call('run_task', { task_id: 'nope.task', input: {} }), 404, 'task_not_found');
          toolProblem(await call('run_task', { task_id: 'rt-open.bad.get', input: { id: '1' } }), 410, 'task_broken');
        });

        it('describes a task as GET /v1/tasks/{id} does, plus ready for the principal', async () => {
          const rest = await h().request({ method: 'GET', url: '/v1/tasks/rt-paid.quote.get' });
          const described = await call('describe_task', { task_id: 'rt-paid.quote.get' });
          expect(described.isError).to.equal(undefined);
          expect(described.structuredContent).to.deep.equal({ ...rest.json, ready: true });
          const account = await call('describe_task', { task_id: 'rt-oauth.inbox.list' }, { 'svc-principal': 'user:nobody' });
          expect(account.structuredContent.ready).to.equal(false);
        });

        it('discovers as POST /v1/discover does', async () => {
          const rest = await h().request({ method: 'POST', url: '/v1/discover', payload: { task: 'current weather in a city', limit: 3 }, headers: { 'svc-principal': 'user:ada' } });
          const found = await call('discover_tasks', { job: 'current weather in a city', limit: 3 }, { 'svc-principal': 'user:ada' });
          expect(found.structuredContent).to.deep.equal(rest.json);
          expect(found.structuredContent.candidates[0]).to.have.property('ready');
        });

        it('runs as REST runs: output and receipt, the call audited with the svc-tag, routing arguments as the svc-* headers', async () => {
          fakes.open.on('GET', '/weather/Kyiv', { json: { temp: 3 } });
          const ran = await call('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Kyiv', units: 'metric' } }, { 'svc-tag': 'agent-7' });
          expect(Object.keys(ran.structuredContent)).to.deep.equal(['output', 'receipt']);
          expect(ran.structuredContent.output).to.deep.equal({ temp: 3 });
          const { receipt } = ran.structuredContent;
          expect(receipt).to.include({ identity: 'anonymous', principal: 'organization', quoted_usd: 0, charged_usd: 0 });
          const audited = await h().request({ method: 'GET', url: `/v1/calls/${receipt.call_id}` });
          expect(audited.json).to.include({ task: 'rt-open.weather.now', outcome: 'hit', tag: 'agent-7' });
          expect(fakes.open.requests[0].query).to.deep.equal({ units: 'metric', lang: 'en' });

          // Routing: only the mirror may answer, as svc-only: rt-mirror would make it.
          fakes.mirror.on('GET', '/w', { json: { temp: 4 } });
          const routed = await call('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Kyiv' }, routing: { only: ['rt-mirror'] } });
          expect(routed.structuredContent.output).to.deep.equal({ temp: 4 });
          const miss = toolProblem(await call('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Kyiv' }, routing: { max_cost: '0.0001', only: ['rt-paid'] } }), 404, 'miss');
          expect(miss.call_id).to.match(/^call_/);
        });

        it('counts every run_task against the run budget before reading its arguments, as REST counts every run', async () => {
          const asCounted = { 'svc-principal': `user:counted-${generation.key}` };
          toolProblem(await call('run_task', { task_id: 42, input: 'x' }, asCounted), 400, 'invalid_input');
          toolProblem(await call('run_task', { task_id: 'nope.task', input: {} }, asCounted), 404, 'task_not_found');
          const pinned = await send('tools/call', { name: 'rt-open.weather.now', arguments: { city: 3 } }, { url: '/v1/mcp?tasks=rt-open.weather.now', headers: asCounted });
          toolProblem(pinned.json.result, 400, 'invalid_input');
          const rest = await h().request({ method: 'POST', url: '/v1/tasks/rt-open.weather.now/run', payload: { city: '' }, headers: asCounted });
          expect(rest.statusCode).to.equal(400);
          const limited = toolProblem(await call('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Oslo' } }, asCounted), 429, 'rate_limited');
          expect(limited.detail).to.match(/retry in \d+ s/);
          // Discovering and describing are not runs.
          expect((await call('describe_task', { task_id: 'rt-open.weather.now' }, asCounted)).isError).to.equal(undefined);
          expect(fakes.open.requests).to.have.length(0);
        });

        it('keeps concurrent POSTs apart though their clients number requests alike: each gets its own answer, as its own caller', async () => {
          const tokens = await Promise.all(
            [`user:ana-${generation.key}`, `user:bo-${generation.key}`].map(async (principal) => (await issueUserToken(h().gateway, h().organizationId, { principal, expires_in: 600 }, 'test')).token),
          );
          const cities = ['Lima', 'Quito', 'Cusco', 'Sucre', 'Salta', 'Arica', 'Tacna', 'Piura'];
          for (const city of cities) fakes.open.on('GET', `/weather/${city}`, { json: { city } });
          const answers = await Promise.all(
            cities.map((city, i) =>
              send('tools/call', { name: 'run_task', arguments: { task_id: 'rt-open.weather.now', input: { city } } }, { id: 1, headers: { authorization: `Bearer ${tokens[i % 2]}` } }),
            ),
          );
          answers.forEach((answer, i) => {
            expect(answer.json.id).to.equal(1);
            const { output, receipt } = answer.json.result.structuredContent;
            expect(output).to.deep.equal({ city: cities[i] });
            expect(receipt.principal).to.equal(i % 2 ? `user:bo-${generation.key}` : `user:ana-${generation.key}`);
          });
        });

        it('answers a principal-bound token naming another principal with principal_forbidden tool errors', async () => {
          const token = (await issueUserToken(h().gateway, h().organizationId, { principal: 'user:mallory', expires_in: 600 }, 'test')).token;
          const asToken = { authorization: `Bearer ${token}` };
          const listed = await send('tools/list', {}, { headers: asToken });
          expect(listed.json.result.tools).to.have.length(3);
          const other = { ...asToken, 'svc-principal': 'user:alice' };
          toolProblem(await call('discover_tasks', { job: 'weather' }, other), 403, 'principal_forbidden');
          toolProblem(await call('describe_task', { task_id: 'rt-open.weather.now' }, other), 403, 'principal_forbidden');
          toolProblem(await call('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Oslo' } }, other), 403, 'principal_forbidden');
          expect(fakes.open.requests).to.have.length(0);
          const own = await call('describe_task', { task_id: 'rt-oauth.inbox.list' }, asToken);
          expect(own.structuredContent.ready).to.equal(false);
        });
      });
    }
  },
  { config: fakes.config({ metrics: { token: METRICS_TOKEN }, rate_limits: { per_principal: { run: PER_PRINCIPAL_RUNS } } }) },
);

for (const dialect of dialects) {
  describe(`MCP endpoint switched off (mcp.enabled false) [${dialect}]`, function () {
    this.timeout(60000);
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect, { config: { mcp: { enabled: false } } });
    });
    after(async () => h?.close());

    it('answers every method on /v1/mcp with 404 route_not_found', async () => {
      for (const method of ['POST', 'GET', 'DELETE']) {
        problem(await h.request({ method, url: '/v1/mcp', payload: method === 'POST' ? '{}' : undefined, headers: MCP_HEADERS }), 404, 'route_not_found');
      }
    });
  });
}
