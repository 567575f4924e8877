import { Client as V2Client, SdkHttpError, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRunFakes, type RunFakes } from '../fixtures/run-providers.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { closedPort } from '../support/fake-provider.js';
import { authorizeAtProvider, startOAuthServer, TestBrowser, type OAuthServer } from '../support/oauth-server.js';
import { databaseEnv, initialOwnerKey, runGateway, startGateway, type RunningGateway } from '../support/process.js';

const runCatalog = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'run-catalog.yaml');

/** Per-principal run budget of these gateways: small enough to exhaust in a test. */
const PER_PRINCIPAL_RUNS = 3;

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: any;
  content: Array<{ type: string; text?: string }>;
}

/** What the tests do with an agent's MCP client, whichever SDK and protocol generation it is. */
interface Agent {
  serverName(): string | undefined;
  instructions(): string | undefined;
  protocolVersion(): string | undefined;
  listTools(): Promise<{ tools: Array<{ name: string; inputSchema: Record<string, unknown> }> }>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

interface AgentOptions {
  headers?: Record<string, string>;
  /** How the agent's user handles a hosted link the server sends (2026-07-28 URL elicitation); absent, the client takes none. */
  onUserLink?: (url: string) => Promise<void>;
}

/** An SDK client connected to the endpoint: the v1 SDK (initialize, 2025-11-25) or the v2 one pinned to 2026-07-28. */
interface ClientKind {
  name: string;
  /** Suffix for principals and keys a test uses up, so each kind starts fresh. */
  key: string;
  modern: boolean;
  connect(url: URL, options: AgentOptions): Promise<Agent>;
}

const V1: ClientKind = {
  name: 'the v1 SDK client (revision 2025-11-25)',
  key: 'v1',
  modern: false,
  async connect(url, { headers = {} }) {
    const client = new V1Client({ name: 'gateway-test-agent', version: '1.0.0' });
    await client.connect(new V1Transport(url, { requestInit: { headers } }));
    return {
      serverName: () => client.getServerVersion()?.name,
      instructions: () => client.getInstructions(),
      protocolVersion: () => undefined,
      listTools: () => client.listTools(),
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolAnswer,
      close: () => client.close(),
    };
  },
};

const V2_MODERN: ClientKind = {
  name: 'the v2 SDK client pinned to revision 2026-07-28',
  key: 'v2',
  modern: true,
  async connect(url, { headers = {}, onUserLink }) {
    const client = new V2Client(
      { name: 'gateway-test-agent', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: onUserLink ? { elicitation: { url: {} } } : {} },
    );
    if (onUserLink) {
      client.setRequestHandler('elicitation/create', async (request) => {
        if (request.params.mode !== 'url') return { action: 'decline' };
        await onUserLink(request.params.url);
        return { action: 'accept' };
      });
    }
    await client.connect(new V2Transport(url, { requestInit: { headers } }));
    return {
      serverName: () => client.getServerVersion()?.name,
      instructions: () => client.getInstructions(),
      protocolVersion: () => client.getNegotiatedProtocolVersion(),
      listTools: () => client.listTools() as ReturnType<Agent['listTools']>,
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolAnswer,
      close: () => client.close(),
    };
  },
};

/** The HTTP status an SDK client's error reports, when the server answered one. */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError) return error.code;
  if (error instanceof SdkHttpError) return error.status;
  return undefined;
}

/**
 * The MCP endpoint of a real `gateway serve`, driven by the SDKs' own clients over Streamable HTTP (the v1 SDK
 * on the earlier revisions and the v2 SDK on 2026-07-28, through the same tests), with loopback fake upstreams
 * and a real OAuth server for the consent flow an agent hands to its user.
 */
for (const dialect of dialects) {
  describe(`MCP endpoint of a real gateway serve, through the SDK clients [${dialect}]`, function () {
    this.timeout(90000);
    let database: TestDatabase;
    let fakes: RunFakes;
    let oauth: OAuthServer;
    let gateway: RunningGateway;
    let env: NodeJS.ProcessEnv;
    let publicUrl: string;
    let ownerKey: string;
    const agents: Agent[] = [];

    async function rest(method: string, url: string, body?: unknown, bearer = ownerKey) {
      const res = await fetch(`${publicUrl}${url}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers };
    }

    async function tokenFor(principal: string): Promise<{ id: string; token: string }> {
      const issued = await rest('POST', '/v1/tokens', { principal, expires_in: 3600 });
      expect(issued.status, JSON.stringify(issued.json)).to.equal(201);
      return issued.json;
    }

    async function call(agent: Agent, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
      const result = await agent.callTool(name, args);
      expect(result.content).to.have.length(1);
      expect(JSON.parse(result.content[0].text!)).to.deep.equal(result.structuredContent);
      return result;
    }

    function toolProblem(result: ToolAnswer, status: number, code: string): any {
      expect(result.isError, JSON.stringify(result.structuredContent)).to.equal(true);
      expect(result.structuredContent).to.include({ status, code, type: `${publicUrl}/problems/${code}` });
      return result.structuredContent;
    }

    /** The end user at a connect link: the consent page, Continue, the provider's sign-in and consent, back to the gateway. */
    async function consentAt(connectUrl: string, login: string): Promise<void> {
      const browser = new TestBrowser('http://browser-only.invalid', () => Promise.reject(new Error('every request goes over the network')));
      expect((await browser.go(connectUrl)).status).to.equal(200);
      const continued = await browser.go(connectUrl, { form: {} });
      expect(continued.status, continued.body).to.equal(303);
      const callback = await authorizeAtProvider(browser, publicUrl, continued.location!, { login });
      const done = await browser.go(callback);
      expect(done.status, done.body).to.equal(200);
      expect(done.body).to.include('connected');
    }

    before(async function () {
      this.timeout(120000);
      database = await createTestDatabase(dialect);
      fakes = await startRunFakes();
      const port = await closedPort();
      publicUrl = `http://127.0.0.1:${port}`;
      oauth = await startOAuthServer(publicUrl);
      env = {
        ...databaseEnv(database),
        GATEWAY_PUBLIC_URL: publicUrl,
        GATEWAY_CATALOG: [runCatalog, oauth.catalogFile].join(','),
        GATEWAY_PROVIDERS__RT_OPEN__BASE_URL: fakes.open.url,
        GATEWAY_PROVIDERS__RT_MIRROR__BASE_URL: fakes.mirror.url,
        GATEWAY_PROVIDERS__RT_PAID__BASE_URL: fakes.paid.url,
        GATEWAY_RATE_LIMITS__PER_PRINCIPAL__RUN: String(PER_PRINCIPAL_RUNS),
      };
      gateway = await startGateway(env, ['--port', String(port)]);
      ownerKey = initialOwnerKey(database);
      const app = await rest('PUT', '/v1/providers/oidc-test/oauth-app', oauth.clients.basic);
      expect(app.status, JSON.stringify(app.json)).to.equal(200);
    });
    beforeEach(() => fakes.reset());
    after(async () => {
      await Promise.all(agents.map((agent) => agent.close()));
      await gateway?.stop();
      await oauth?.close();
      await fakes?.close();
      await database?.drop();
    });

    for (const kind of [V1, V2_MODERN]) {
      describe(kind.name, () => {
        /** A principal or key of this kind's own, so the budgets and audits of the two kinds stay apart. */
        const own = (name: string) => `${name}-${kind.key}`;

        async function connect(bearer: string, options: AgentOptions & { query?: string } = {}): Promise<Agent> {
          const agent = await kind.connect(new URL(`${publicUrl}/v1/mcp${options.query ?? ''}`), {
            ...options,
            headers: { authorization: `Bearer ${bearer}`, ...options.headers },
          });
          agents.push(agent);
          return agent;
        }

        it('connects, gives the instructions, and lists the three tools, plus pinned tasks with ?tasks=', async () => {
          const client = await connect(ownerKey);
          expect(client.serverName()).to.equal('task-gateway');
          if (kind.modern) expect(client.protocolVersion()).to.equal('2026-07-28');
          expect(client.instructions()).to.match(/discover_tasks/).and.match(/describe_task/).and.match(/connect_url/);
          const { tools } = await client.listTools();
          expect(tools.map((tool) => tool.name)).to.deep.equal(['discover_tasks', 'describe_task', 'run_task']);

          const pinned = await connect(ownerKey, { query: '?tasks=rt-open.weather.now,oidc-test.contacts.list' });
          const listed = await pinned.listTools();
          expect(listed.tools.map((tool) => tool.name)).to.deep.equal(['discover_tasks', 'describe_task', 'run_task', 'rt-open.weather.now', 'oidc-test.contacts.list']);
          expect(listed.tools[3].inputSchema).to.deep.include({ type: 'object', required: ['city'] });

          fakes.open.on('GET', '/weather/Quito', { json: { temp: 14 } });
          const ran = await call(pinned, 'rt-open.weather.now', { city: 'Quito' });
          expect(ran.structuredContent.output).to.deep.equal({ temp: 14 });

          // A task with a declared output has an outputSchema (its references still resolve), which the SDK client checks the result against.
          const timed = await connect(ownerKey, { query: '?tasks=builtin.time.convert' });
          const tool = (await timed.listTools()).tools[3] as { outputSchema?: { properties: { output: unknown } } };
          expect(tool.outputSchema?.properties.output).to.deep.include({ $ref: '#/properties/output/definitions/zoned' });
          const converted = await call(timed, 'builtin.time.convert', { instant: '2026-03-01T15:00:00Z', timezone: 'Asia/Tokyo' });
          expect(converted.structuredContent.output).to.include({ local: '2026-03-02T00:00:00+09:00', weekday: 'Monday' });
        });

        it('discovers and describes as the REST API does', async () => {
          const client = await connect(ownerKey);
          const found = await call(client, 'discover_tasks', { job: 'current weather for a city', limit: 3 });
          const rest_ = await rest('POST', '/v1/discover', { task: 'current weather for a city', limit: 3 });
          expect(found.isError).to.not.equal(true);
          expect(found.structuredContent).to.deep.equal(rest_.json);
          expect(found.structuredContent.candidates).to.have.length(3);

          const described = await call(client, 'describe_task', { task_id: 'rt-open.weather.now' });
          const task = await rest('GET', '/v1/tasks/rt-open.weather.now');
          expect(described.structuredContent).to.deep.equal({ ...task.json, ready: true });
        });

        it('runs a data task with the REST receipt and audit row, tagged by svc-tag, routing as the svc-* headers', async () => {
          const tag = own('mcp-e2e');
          const client = await connect(ownerKey, { headers: { 'svc-tag': tag } });
          fakes.open.on('GET', '/weather/Accra', { json: { temp: 30 } });
          const ran = await call(client, 'run_task', { task_id: 'rt-open.weather.now', input: { city: 'Accra', units: 'metric' } });
          expect(ran.isError).to.not.equal(true);
          expect(Object.keys(ran.structuredContent)).to.deep.equal(['output', 'receipt']);
          const { output, receipt } = ran.structuredContent;
          expect(output).to.deep.equal({ temp: 30 });
          expect(Object.keys(receipt).sort()).to.deep.equal(['call_id', 'charged_usd', 'identity', 'latency_ms', 'principal', 'quoted_usd']);
          expect(receipt).to.include({ identity: 'anonymous', principal: 'organization', quoted_usd: 0, charged_usd: 0 });
          expect(fakes.open.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /weather/Accra']);
          expect(fakes.open.requests[0].query).to.deep.equal({ units: 'metric', lang: 'en' });

          const audit = await rest('GET', `/v1/calls?tag=${tag}`);
          expect(audit.json.calls.map((c: { id: string }) => c.id)).to.deep.equal([receipt.call_id]);
          expect(audit.json.calls[0]).to.include({ task: 'rt-open.weather.now', provider: 'rt-open', outcome: 'hit', identity: 'anonymous', principal: 'organization', tag });
          const captured = await rest('GET', `/v1/calls/${receipt.call_id}/capture`);
          expect(captured.json.input).to.deep.equal({ city: 'Accra', units: 'metric' });

          fakes.mirror.on('GET', '/w', { json: { temp: 29 } });
          const routed = await call(client, 'run_task', { task_id: 'rt-open.weather.now', input: { city: 'Accra' }, routing: { order: ['rt-mirror', 'rt-open'], zero_retention: true } });
          expect(routed.structuredContent.output).to.deep.equal({ temp: 29 });
          expect(fakes.mirror.requests[0].query).to.deep.equal({ q: 'Accra' });
          const noCapture = await rest('GET', `/v1/calls/${routed.structuredContent.receipt.call_id}/capture`);
          expect(noCapture.json.code).to.equal('capture_not_found');
        });

        if (kind.modern) {
          it('sends the user to the connect link as a URL elicitation when an account task needs consent; the retried call runs', async () => {
            const ada = await tokenFor(own('user:ada'));
            const links: string[] = [];
            const client = await connect(ada.token, { onUserLink: async (url) => (links.push(url), consentAt(url, own('ada-account'))) });
            expect((await call(client, 'describe_task', { task_id: 'oidc-test.contacts.list' })).structuredContent.ready).to.equal(false);

            // One callTool: the server answers input_required, the client's user consents at the link, the client retries.
            const ran = await call(client, 'run_task', { task_id: 'oidc-test.contacts.list', input: {} });
            expect(links).to.have.length(1);
            expect(links[0]).to.match(new RegExp(`^${publicUrl}/v1/hosted/connect/`));
            expect(ran.isError, JSON.stringify(ran.structuredContent)).to.not.equal(true);
            expect(ran.structuredContent.output).to.include({ sub: own('ada-account') });
            expect(ran.structuredContent.receipt.principal).to.equal(own('user:ada'));
            expect(ran.structuredContent.receipt.identity).to.match(/^connection:conn_/);

            // A client that takes no URL elicitation gets the problem with the link, as on the earlier revisions.
            const plain = await connect((await tokenFor(own('user:eve'))).token);
            expect(toolProblem(await call(plain, 'run_task', { task_id: 'oidc-test.contacts.list', input: {} }), 403, 'grant_required').connect_url).to.match(
              new RegExp(`^${publicUrl}/v1/hosted/connect/`),
            );
          });
        } else {
          it('gives grant_required with a connect_url for an account task; after the user consents the same call works', async () => {
            const ada = await tokenFor(own('user:ada'));
            const client = await connect(ada.token);
            expect((await call(client, 'describe_task', { task_id: 'oidc-test.contacts.list' })).structuredContent.ready).to.equal(false);

            const first = toolProblem(await call(client, 'run_task', { task_id: 'oidc-test.contacts.list', input: {} }), 403, 'grant_required');
            expect(first.connect_url).to.match(new RegExp(`^${publicUrl}/v1/hosted/connect/`));
            await consentAt(first.connect_url, own('ada-account'));

            expect((await call(client, 'describe_task', { task_id: 'oidc-test.contacts.list' })).structuredContent.ready).to.equal(true);
            const retried = await call(client, 'run_task', { task_id: 'oidc-test.contacts.list', input: {} });
            expect(retried.isError, JSON.stringify(retried.structuredContent)).to.not.equal(true);
            expect(retried.structuredContent.output).to.include({ sub: own('ada-account') });
            expect(retried.structuredContent.receipt.principal).to.equal(own('user:ada'));
            expect(retried.structuredContent.receipt.identity).to.match(/^connection:conn_/);
          });
        }

        it('answers an idempotent repeat with the first answer: same call_id, one upstream request', async () => {
          const client = await connect(ownerKey);
          fakes.open.on('GET', '/weather/Lagos', { json: { temp: 31 } });
          const args = { task_id: 'rt-open.weather.now', input: { city: 'Lagos' }, idempotency_key: own('mcp-e2e-once') };
          const first = await call(client, 'run_task', args);
          const again = await call(await connect(ownerKey), 'run_task', args);
          expect(again.structuredContent).to.deep.equal(first.structuredContent);
          expect(fakes.open.requests).to.have.length(1);
          const changed = toolProblem(await call(client, 'run_task', { ...args, input: { city: 'Abuja' } }), 400, 'invalid_input');
          expect(changed.detail).to.match(/idempotency/i);
        });

        it('counts MCP runs against the same per-principal budget as REST runs: over it, a rate_limited tool error', async () => {
          const busy = own('user:busy');
          const client = await connect(ownerKey, { headers: { 'svc-principal': busy } });
          fakes.open.on('GET', '/weather/Cairo', { json: { temp: 25 } });
          const restRun = await fetch(`${publicUrl}/v1/tasks/rt-open.weather.now/run`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json', 'svc-principal': busy },
            body: JSON.stringify({ city: 'Cairo' }),
          });
          expect(restRun.status).to.equal(200);
          for (let i = 1; i < PER_PRINCIPAL_RUNS; i++) {
            expect((await call(client, 'run_task', { task_id: 'rt-open.weather.now', input: { city: 'Cairo' } })).isError).to.not.equal(true);
          }
          const limited = toolProblem(await call(client, 'run_task', { task_id: 'rt-open.weather.now', input: { city: 'Cairo' } }), 429, 'rate_limited');
          expect(limited.detail).to.match(/retry in \d+ s/);
          expect(fakes.open.requests).to.have.length(PER_PRINCIPAL_RUNS);
          // Another principal of the same key still runs.
          const other = await connect(ownerKey, { headers: { 'svc-principal': own('user:idle') } });
          expect((await call(other, 'run_task', { task_id: 'rt-open.weather.now', input: { city: 'Cairo' } })).isError).to.not.equal(true);
        });

        it('keeps a principal-bound token to its own principal', async () => {
          const mallory = await tokenFor(own('user:mallory'));
          const client = await connect(mallory.token, { headers: { 'svc-principal': own('user:ada') } });
          for (const [name, args] of [
            ['discover_tasks', { job: 'contacts' }],
            ['describe_task', { task_id: 'oidc-test.contacts.list' }],
            ['run_task', { task_id: 'oidc-test.contacts.list', input: {} }],
          ] as const) {
            const problem = toolProblem(await call(client, name, args), 403, 'principal_forbidden');
            expect(problem.detail).to.not.include('ada');
          }
          // Its own world: user:ada's connection does not make the task ready for mallory.
          const ownClient = await connect(mallory.token);
          expect((await call(ownClient, 'describe_task', { task_id: 'oidc-test.contacts.list' })).structuredContent.ready).to.equal(false);
          toolProblem(await call(ownClient, 'run_task', { task_id: 'oidc-test.contacts.list', input: {} }), 403, 'grant_required');
        });

        it('answers bad input with tool errors or 4xx, never a 500 or a hang', async () => {
          const client = await connect(ownerKey);
          const invalid = async (name: string, args: Record<string, unknown>) => toolProblem(await call(client, name, args), 400, 'invalid_input');
          await invalid('run_task', { task_id: 42, input: 'Paris' });
          await invalid('discover_tasks', { job: ['weather'] });
          toolProblem(await call(client, 'run_task', { task_id: 'no.such.task', input: {} }), 404, 'task_not_found');
          const nul = await invalid('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Par\u0000is' } });
          expect(nul.invalid_params[0].name).to.equal('city');
          const surrogate = await invalid('run_task', { task_id: 'rt-open.weather.now', input: { city: 'Par\uD800is' } });
          expect(surrogate.invalid_params[0].name).to.equal('city');
          let deep: Record<string, unknown> = { end: true };
          for (let i = 0; i < 200; i++) deep = { deeper: deep };
          try {
            toolProblem(await call(client, 'run_task', { task_id: 'rt-mirror.weather.now', input: { city: 'Rome', extra: deep } }), 400, 'invalid_input');
          } catch (error) {
            expect(httpStatusOf(error), String(error)).to.equal(400);
          }
          let oversized: unknown;
          try {
            await client.callTool('run_task', { task_id: 'rt-open.weather.now', input: { city: 'x'.repeat(1_100_000) } });
          } catch (error) {
            oversized = error;
          }
          expect(httpStatusOf(oversized), String(oversized)).to.equal(413);
          expect(fakes.open.requests).to.have.length(0);
          expect(fakes.mirror.requests).to.have.length(0);
          // The endpoint still answers after all that.
          expect((await client.listTools()).tools).to.have.length(3);
        });

        it('keeps two agents apart: each token runs at once as its own principal, and the audit shows each only its own', async () => {
          fakes.open.on('GET', '/weather/Lima', { json: { temp: 18 } });
          const [annPrincipal, bobPrincipal] = [own('user:ann'), own('user:bob')];
          const [ann, bob] = await Promise.all([tokenFor(annPrincipal), tokenFor(bobPrincipal)]);
          const [annClient, bobClient] = await Promise.all([connect(ann.token), connect(bob.token)]);
          const runs = await Promise.all(
            [annClient, bobClient, annClient, bobClient].map((client) => call(client, 'run_task', { task_id: 'rt-open.weather.now', input: { city: 'Lima' } })),
          );
          expect(runs.map((r) => r.structuredContent.receipt.principal)).to.deep.equal([annPrincipal, bobPrincipal, annPrincipal, bobPrincipal]);
          for (const [who, principal] of [[ann, annPrincipal], [bob, bobPrincipal]] as const) {
            const audit = await rest('GET', `/v1/calls?token=${who.id}`);
            expect(audit.json.calls).to.have.length(2);
            for (const row of audit.json.calls) expect(row).to.include({ principal, token_id: who.id, outcome: 'hit' });
            const mine = runs.filter((r) => r.structuredContent.receipt.principal === principal).map((r) => r.structuredContent.receipt.call_id);
            expect(audit.json.calls.map((c: { id: string }) => c.id).sort()).to.deep.equal(mine.sort());
          }
        });
      });
    }

    it('prints a client config with gateway mcp url that both SDK clients connect with as is', async function () {
      // Four CLI processes on a shared machine.
      this.timeout(240000);
      const zoe = await tokenFor('user:zoe');
      const printed = await runGateway(['mcp', 'url', '--token', zoe.token, '--tasks', 'rt-open.weather.now', '--json'], env);
      expect(printed.code, printed.stderr).to.equal(0);
      const { url, config } = JSON.parse(printed.stdout);
      expect(url).to.equal(`${publicUrl}/v1/mcp?tasks=rt-open.weather.now`);
      const server = config.mcpServers['task-gateway'];
      expect(server).to.deep.equal({ url, headers: { Authorization: `Bearer ${zoe.token}` } });
      for (const kind of [V1, V2_MODERN]) {
        const client = await kind.connect(new URL(server.url), { headers: server.headers });
        agents.push(client);
        expect((await client.listTools()).tools.map((t) => t.name)).to.include('rt-open.weather.now');
      }

      const plain = await runGateway(['mcp', 'url'], env);
      expect(plain.code).to.equal(0);
      expect(plain.stdout).to.include(`${publicUrl}/v1/mcp`).and.include('"mcpServers"').and.include('Bearer <');
      expect(plain.stderr).to.equal('');
      const switchedOff = await runGateway(['mcp', 'url', '--json'], { ...env, GATEWAY_MCP__ENABLED: 'false' });
      expect(switchedOff.code).to.equal(0);
      expect(JSON.parse(switchedOff.stdout).url).to.equal(`${publicUrl}/v1/mcp`);
      expect(switchedOff.stderr).to.match(/^warning: mcp\.enabled is false .*404/);
      const unknown = await runGateway(['mcp', 'url', '--tasks', 'no.such.task'], env);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr.trim().split('\n')).to.have.length(1);
      const wrong = await runGateway(['mcp', 'url', '--token', 'gw_live_secret-looking-value'], env);
      expect(wrong.code).to.equal(2);
      expect(wrong.stderr).to.not.include('secret-looking-value');
    });
  });
}
