import { validate } from '@readme/openapi-parser';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { buildDocument, CLIENT_TYPES_FILE, clientTypes } from '../../scripts/openapi.js';
import { checkAgainstDocument } from '../support/api-document.js';
import { eachDialect } from '../support/harness.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A response of an operation, following a reference to the document's shared responses. */
function response(document: any, operation: any, status: string): any {
  const listed = operation.responses[status];
  return listed?.$ref ? document.components.responses[listed.$ref.split('/').pop()] : listed;
}

/** Every method and path the document describes, as "GET /v1/me". */
function operations(document: any): string[] {
  return Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

eachDialect('the API document', (get) => {
  it('is served without credentials at /v1/openapi.json and is a valid OpenAPI 3.1 document', async () => {
    const answer = await get().request({ method: 'GET', url: '/v1/openapi.json', headers: { authorization: null } });
    expect(answer.statusCode).to.equal(200);
    expect(answer.headers['content-type']).to.match(/^application\/json/);
    expect(answer.headers['svc-catalog-version']).to.be.a('string');
    expect(answer.json.openapi).to.equal('3.1.0');
    const result = await validate(structuredClone(answer.json));
    expect(result.valid, JSON.stringify(result)).to.equal(true);
  });

  it('lists every route of the server table, hosted pages included, and nothing else', async () => {
    const { json } = await get().request({ method: 'GET', url: '/v1/openapi.json' });
    const table = get()
      .server.table()
      .map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(operations(json).sort()).to.deep.equal([...table].sort());
    expect(table).to.include.members(['GET /health', 'GET /v1/openapi.json', 'POST /v1/tasks/{id}/run', 'GET /v1/hosted/connect/{secret}']);
  });

  it('asks for the bearer scheme on every route but health, the document itself, the problem pages, the hosted pages and the 405s of /v1/mcp', async () => {
    const { json } = await get().request({ method: 'GET', url: '/v1/openapi.json' });
    expect(json.components.securitySchemes.bearer).to.deep.include({ type: 'http', scheme: 'bearer' });
    for (const route of get().server.table()) {
      const open =
        ['GET /health', 'GET /v1/openapi.json', 'GET /problems/{code}', 'GET /v1/mcp', 'DELETE /v1/mcp', 'PUT /v1/mcp', 'PATCH /v1/mcp'].includes(`${route.method.toUpperCase()} ${route.path}`) ||
        route.path.startsWith('/v1/hosted/');
      const operation = json.paths[route.path][route.method];
      expect(operation.security, `${route.method} ${route.path}`).to.deep.equal(open ? [] : [{ bearer: [] }]);
      if (!open) expect(response(json, operation, '401').description).to.include('unauthenticated').and.include('invalid_token');
    }
  });

  it('describes the run: the svc-* headers and idempotency-key, its answer, each error status with its codes, rate-limit headers', async () => {
    const { json } = await get().request({ method: 'GET', url: '/v1/openapi.json' });
    const run = json.paths['/v1/tasks/{id}/run'].post;
    const headers = run.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name);
    expect(headers).to.include.members(['svc-principal', 'svc-connection', 'svc-credential', 'svc-version', 'svc-sort', 'svc-approval', 'idempotency-key']);
    expect(run.parameters.find((p: any) => p.name === 'idempotency-key').schema.maxLength).to.equal(255);
    expect(run.responses['200'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Run' });
    expect(Object.keys(run.responses['200'].headers)).to.include.members(['svc-catalog-version', 'RateLimit', 'RateLimit-Policy']);
    expect(Object.keys(response(json, run, '429').headers)).to.include('Retry-After');
    const conflict = response(json, run, '409').content['application/problem+json'].schema;
    expect(conflict.allOf[0]).to.deep.equal({ $ref: '#/components/schemas/Problem' });
    expect(conflict.allOf[1].properties.code.enum).to.have.members(['catalog_version_mismatch', 'connection_ambiguous', 'idempotency_in_flight', 'approval_mismatch']);
    const forbidden = response(json, run, '403').content['application/problem+json'].schema;
    expect(forbidden.allOf[1].properties.code.enum).to.include.members(['approval_required', 'approval_declined', 'approval_expired']);
    expect(json.components.responses.UnauthenticatedOrInvalidToken.description).to.equal('codes: unauthenticated, invalid_token');
    expect(Object.keys(run.responses)).to.include.members(['400', '401', '402', '403', '404', '409', '410', '413', '429', '500', '502']);
    const problem = json.components.schemas.Problem;
    expect(problem.required).to.have.members(['type', 'title', 'status', 'detail', 'code']);
    expect(Object.keys(problem.properties)).to.include.members(['connect_url', 'reconnect_url', 'candidates', 'invalid_params', 'approval_id', 'approval_url', 'expires_at']);
    for (const path of ['/v1/approval-policy', '/v1/approvals', '/v1/hosted/approvals/{token}']) expect(json.paths, path).to.have.property(path);
    expect(json.paths['/v1/approval-policy'].put.requestBody.content['application/json'].schema).to.not.equal(undefined);
  });

  it("describes a task's output schema as a JSON Schema object or null, beside its input schema", async () => {
    const { json } = await get().request({ method: 'GET', url: '/v1/openapi.json' });
    const task = json.components.schemas.Task;
    expect(task.required).to.include.members(['input', 'output']);
    expect(task.properties.output.type).to.deep.equal(['object', 'null']);
    expect(task.properties.output.description).to.include('never used to refuse an answer');
  });

  it('lists 429 rate_limited, with Retry-After and the RateLimit headers, exactly on the rate-limited routes, and 429 rate_limited, with Retry-After only, on every other authenticated one', async () => {
    const { json } = await get().request({ method: 'GET', url: '/v1/openapi.json' });
    const limited = get()
      .server.table()
      .filter((route) => route.settings.plugins?.rateLimit)
      .map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(limited).to.include.members(['POST /v1/tasks/{id}/run', 'POST /v1/connections', 'POST /v1/connect/sessions', 'POST /v1/webhooks', 'POST /v1/tokens']);
    const codes429 = (operation: string): string[] => {
      const [method, path] = operation.split(' ');
      return response(json, json.paths[path][method.toLowerCase()], '429')?.content?.['application/problem+json'].schema.allOf[1].properties.code.enum ?? [];
    };
    // Every authenticated route may answer rate_limited (its organization's fair share), with Retry-After only.
    const authenticated = get()
      .server.table()
      .filter((route) => (route.settings.auth as unknown) !== false && !route.path.startsWith('/v1/hosted/'))
      .map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(operations(json).filter((operation) => codes429(operation).includes('rate_limited')).sort()).to.deep.equal(authenticated.sort());
    expect(Object.keys(response(json, json.paths['/v1/me'].get, '429').headers)).to.deep.equal(['svc-catalog-version', 'Retry-After']);
    for (const operation of limited) {
      const [method, path] = operation.split(' ');
      const described = json.paths[path][method.toLowerCase()];
      const success = Object.entries(described.responses).find(([status]) => status.startsWith('2'))![1] as any;
      expect(Object.keys(success.headers), operation).to.include.members(['RateLimit', 'RateLimit-Policy']);
      expect(Object.keys(response(json, described, '429').headers), operation).to.include.members(['Retry-After', 'RateLimit', 'RateLimit-Policy']);
    }
  });

  it('describes hosted pages as text/html, their errors as pages too', async () => {
    const { json } = await get().request({ method: 'GET', url: '/v1/openapi.json' });
    const consent = json.paths['/v1/hosted/connect/{secret}'];
    expect(Object.keys(consent.get.responses['200'].content)).to.deep.equal(['text/html']);
    expect(Object.keys(response(json, consent.get, '404').content)).to.deep.equal(['text/html']);
    expect(consent.post.responses['303'].headers).to.have.property('Location');
    expect(Object.keys(consent.post.requestBody.content)).to.deep.equal(['application/x-www-form-urlencoded']);
  });

  it('fails a test when an answer drifts from the document', () => {
    const { server } = get();
    const me = { statusCode: 200, headers: { 'content-type': 'application/json' } };
    expect(() => checkAgainstDocument(server, 'GET', '/v1/me', { ...me, payload: JSON.stringify({ kind: 'api_key' }) })).to.throw(/does not describe/);
    expect(() => checkAgainstDocument(server, 'GET', '/v1/me', { ...me, statusCode: 201, payload: '{}' })).to.throw(/does not list/);
    const notFound = { statusCode: 404, headers: { 'content-type': 'application/problem+json' } };
    const problem = { type: 'x', title: 'x', status: 404, detail: 'x' };
    expect(() =>
      checkAgainstDocument(server, 'GET', '/v1/tasks/x', { ...notFound, payload: JSON.stringify({ ...problem, code: 'call_not_found' }) }),
    ).to.throw(/does not describe/);
    checkAgainstDocument(server, 'GET', '/v1/tasks/x', { ...notFound, payload: JSON.stringify({ ...problem, code: 'task_not_found' }) });
  });
});

const METRICS_TOKEN = 'metrics-token-for-the-document-test';

eachDialect(
  'the API document with metrics switched on',
  (get) => {
    it('describes GET /metrics as text/plain behind the operator metrics token, and its answers match', async () => {
      const { json } = await get().request({ method: 'GET', url: '/v1/openapi.json' });
      const metrics = json.paths['/metrics'].get;
      expect(metrics.security).to.deep.equal([{ metricsToken: [] }]);
      expect(Object.keys(metrics.responses['200'].content)).to.deep.equal(['text/plain']);
      expect(response(json, metrics, '401').description).to.include('unauthenticated');
      expect((await get().request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode).to.equal(200);
      expect((await get().request({ method: 'GET', url: '/metrics' })).statusCode).to.equal(401);
    });
  },
  { config: { metrics: { token: METRICS_TOKEN } } },
);

describe('the typed client', () => {
  it('is typed by exactly what the build generates from the API document (src/client/schema.ts is current)', async function () {
    this.timeout(60000);
    const generated = await clientTypes(await buildDocument());
    const stale = generated !== readFileSync(CLIENT_TYPES_FILE, 'utf8');
    expect(stale, 'src/client/schema.ts differs from the routes: run node --import tsx scripts/openapi.ts').to.equal(false);
  });
});
