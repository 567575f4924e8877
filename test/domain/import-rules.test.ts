import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { buildCatalog, builtinCatalogFiles } from '../../src/domain/catalog/load.js';
import { ImportError, importOpenApi, type ImportResult } from '../../src/domain/catalog/openapi-import/index.js';

/** The generation rules of docs/catalog.md ("Importing an OpenAPI description"), one operation of rules.yaml each. */

/** The imported file loaded beside the built-in catalog, as `catalog validate` checks it (throws CatalogError). */
function loadBesideBuiltin(imported: ImportResult) {
  const dir = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
  try {
    writeFileSync(path.join(dir, 'imported.yaml'), imported.yaml);
    return buildCatalog([...builtinCatalogFiles(), path.join(dir, 'imported.yaml')], {}, {}).catalog;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/openapi/rules.yaml');
const text = readFileSync(fixture, 'utf8');

describe('catalog import: generation rules', () => {
  let result: ImportResult;
  const task = (id: string) => result.imported.tasks.find((entry) => entry.task.id === `clinic.${id}`)!;
  const skipped = (operationId: string) => result.imported.skipped.find((entry) => entry.operation.operationId === operationId)?.reason;

  before(async () => {
    result = await importOpenApi(text, fixture, { provider: 'clinic' });
  });

  it('makes the provider: server variables filled with their defaults, the first paragraph as plain text, OAuth2 from the authorization code flow', () => {
    expect(result.format).to.equal('openapi 3.0.3');
    expect(result.imported.provider).to.deep.include({
      slug: 'clinic',
      name: 'Pet Clinic',
      description: 'The Pet Clinic API: pets, owners and visits.',
      base_url: 'https://eu.clinic.example/v2',
    });
    expect(result.imported.provider.auth).to.deep.equal({
      type: 'oauth2',
      authorize_url: 'https://auth.clinic.example/authorize',
      token_url: 'https://eu.clinic.example/oauth/token',
      scopes: [],
      pkce: true,
    });
    expect(result.imported.providerNotes.join(' ')).to.match(/region=eu/);
  });

  it('probes with the account\'s own record, pointing at its id and name', () => {
    expect(result.imported.provider.probe).to.deep.equal({ method: 'GET', path: '/me', account_id: '/id', account_name: '/name' });
  });

  it('makes one task per runnable operation, in id order, with ids from the operationId or the method and path', () => {
    expect(result.imported.tasks.map((entry) => entry.task.id)).to.deep.equal([
      'clinic.create_pet',
      'clinic.delete_pet',
      'clinic.get.pets.by_pet_id',
      'clinic.get_current_user',
      'clinic.list_pets',
    ]);
    expect(task('list_pets').task).to.deep.include({ capability: 'clinic.list_pets', kind: 'account', title: 'List pets', description: "Lists the clinic's pets, newest first. See limit.", scopes: ['pets:read'], keywords: ['pets'] });
  });

  it('skips what the gateway cannot run, with the reason', () => {
    expect(skipped('uploadPhoto')).to.equal('its body is a multipart upload (multipart/form-data)');
    expect(skipped('getPhoto')).to.equal('it answers with binary content (image/png)');
    expect(skipped('streamEvents')).to.equal('it answers with a stream (text/event-stream)');
    expect(skipped('checkEvents')).to.match(/^HEAD is not a method a task sends/);
    expect(skipped('bookVisit')).to.equal("header parameter X-Clinic-Branch is required, and a task's headers are fixed");
    expect(skipped('listVisits')).to.match(/^needs security scheme cookieKey \(API key in cookie\)/);
    expect(result.imported.skipped.every((entry) => !result.imported.tasks.some((kept) => kept.operation.path === entry.operation.path && kept.operation.method === entry.operation.method))).to.equal(true);
    expect(result.imported.providerNotes.join(' ')).to.match(/cookieKey/);
  });

  it('merges path, query and body into one input, renaming a clash and leaving out what cannot be sent', () => {
    const create = task('create_pet');
    expect(create.task.input).to.deep.equal({
      type: 'object',
      properties: {
        name: { type: 'string', description: "A query parameter that clashes with the body's name." },
        body_name: { type: 'string', maxLength: 50 },
        tag: { type: ['string', 'null'] },
        owner: { $ref: '#/definitions/Owner' },
      },
      required: ['body_name'],
      additionalProperties: false,
      definitions: {
        Owner: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, pets: { type: 'array', items: { $ref: '#/definitions/Pet' } } } },
        Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 50 }, tag: { type: ['string', 'null'] }, owner: { $ref: '#/definitions/Owner' } } },
      },
    });
    expect(create.task.request).to.deep.equal({ method: 'POST', path: '/pets', query: { name: '{name}' }, body: { name: '{body_name}', tag: '{tag}', owner: '{owner}' } });
    expect(create.notes).to.include('body name is input body_name (name was taken).');
    expect(create.task).to.not.have.property('annotations');

    const list = task('list_pets');
    expect(list.task.request).to.deep.equal({ method: 'GET', path: '/pets', query: { limit: '{limit}', tags: '{tags}' } });
    expect(list.notes).to.include('header parameter X-Trace is left out: a task\'s headers are fixed.');
    expect(list.notes).to.include('query parameter tags takes a list; the task sends one value.');
  });

  it('keeps the 2xx answer\'s schema as output, and leaves it out when the answer has none', () => {
    expect(task('list_pets').task.output).to.deep.include({ type: 'array', items: { $ref: '#/definitions/Pet' } });
    expect(task('get.pets.by_pet_id').task).to.not.have.property('output');
  });

  it('an operation open to all is data; the kinds follow the method and the auth', () => {
    expect(task('get.pets.by_pet_id').task).to.deep.include({ kind: 'data', title: 'Get a pet' });
    expect(task('get.pets.by_pet_id').task.request).to.deep.equal({ method: 'GET', path: '/pets/{petId}' });
    expect(task('delete_pet').task).to.deep.include({ kind: 'account', scopes: ['pets:write'] });
  });

  it('writes a file that validates beside the built-in catalog, with a comment before each task', () => {
    expect([...loadBesideBuiltin(result).tasks.keys()].filter((id) => id.startsWith('clinic.'))).to.have.length(5);
    expect(result.yaml).to.match(/^# Generated by `gateway catalog import` from .*rules\.yaml: Pet Clinic 2\.1\.0 \(openapi 3\.0\.3\)\./);
    expect(result.yaml).to.include('  # POST /pets (createPet)\n  #   body name is input body_name (name was taken).\n  - id: clinic.create_pet');
    expect(result.yaml).to.include('#   PUT /pets/{petId}/photo (uploadPhoto): its body is a multipart upload (multipart/form-data)');
    expect(result.yaml).to.not.match(/&a\d|\*a\d/);
    expect((load(result.yaml) as { tasks: unknown[] }).tasks).to.have.length(5);
  });

  it('is stable: the same description gives the same file', async () => {
    expect((await importOpenApi(text, fixture, { provider: 'clinic' })).yaml).to.equal(result.yaml);
  });

  it('selects operations by operationId, tag or METHOD /path, exclusion winning', async () => {
    const only = await importOpenApi(text, fixture, { provider: 'clinic', include: ['pets', 'GET /me'], exclude: ['delete*'] });
    expect(only.imported.tasks.map((entry) => entry.task.id)).to.deep.equal(['clinic.create_pet', 'clinic.get_current_user', 'clinic.list_pets']);
    expect(only.imported.excluded).to.equal(8);
  });

  it('refuses a description it cannot read, and a server it cannot use, in one line', async () => {
    const refusal = async (body: string, options = {}) => {
      try {
        await importOpenApi(body, undefined, { provider: 'x', ...options });
      } catch (err) {
        expect(err).to.be.instanceOf(ImportError);
        return (err as Error).message;
      }
      throw new Error('imported');
    };
    expect(await refusal('openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}')).to.equal("names no server; give the provider's URL with --base-url");
    expect(await refusal('openapi: 3.0.0\nservers: [{url: /v1}]\npaths: {}')).to.match(/^server \/v1 is relative/);
    expect(await refusal('swagger: "1.2"')).to.equal('is Swagger 1.2; only 2.0 can be imported');
    expect(await refusal('[1, 2')).to.match(/^is neither JSON nor YAML/);
    expect(await refusal('openapi: 3.0.0\npaths: {}', { provider: 'Not A Slug' })).to.match(/--provider Not A Slug must be a slug/);
  });

  it('skips, never writes, a query name with white space, an empty fixed header or a path query naming no parameter; takes a required User-Agent as sent', async () => {
    const description = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Odd', version: '1' },
      servers: [{ url: 'https://odd.example' }],
      paths: {
        '/lookup': {
          get: {
            operationId: 'lookup',
            parameters: [{ name: 'ip address', in: 'query', required: true, schema: { type: 'string' } }],
            responses: { 204: { description: 'ok' } },
          },
        },
        '/search': {
          get: {
            operationId: 'search',
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }, { name: 'data source', in: 'query', schema: { type: 'string' } }],
            responses: { 204: { description: 'ok' } },
          },
        },
        '/events': {
          get: {
            operationId: 'events',
            parameters: [{ name: 'Correlation-Id', in: 'header', required: true, schema: { type: 'string', default: '' } }],
            responses: { 204: { description: 'ok' } },
          },
        },
        '/uploads?convert={convert}': { post: { operationId: 'upload', responses: { 204: { description: 'ok' } } } },
        '/agents': {
          get: {
            operationId: 'agents',
            parameters: [{ name: 'User-Agent', in: 'header', required: true, schema: { type: 'string' } }],
            responses: { 204: { description: 'ok' } },
          },
        },
      },
    });
    const odd = await importOpenApi(description, undefined, { provider: 'odd' });
    const reasons = Object.fromEntries(odd.imported.skipped.map((entry) => [entry.operation.operationId, `${entry.category}: ${entry.reason}`]));
    expect(reasons).to.deep.equal({
      lookup: "query: query parameter ip address has white space in its name, which a task's query cannot name",
      events: "header: header parameter Correlation-Id is required, and a task's headers are fixed",
      upload: "path: its path's query convert={convert} names {convert}, which no parameter describes",
    });
    const search = odd.imported.tasks.find((entry) => entry.task.id === 'odd.search')!;
    expect(search.task.request).to.deep.include({ query: { q: '{q}' } });
    expect(search.notes).to.include('query parameter data source is left out: it has white space in its name.');
    // The gateway sends a User-Agent of its own on every request.
    const agents = odd.imported.tasks.find((entry) => entry.task.id === 'odd.agents')!;
    expect(agents.task.request).to.not.have.property('headers');
    expect(agents.notes).to.include("header parameter User-Agent is the gateway's own.");
    expect(loadBesideBuiltin(odd).tasks.has('odd.search')).to.equal(true);
  });

  it('describes an input or answer whose schemas link to too many others fewer links deep, instead of carrying them all', async () => {
    // 150 schemas, each linking to every later one: the closure of the first is all of them.
    const names = Array.from({ length: 150 }, (_, i) => `Node${i}`);
    const schemas = Object.fromEntries(names.map((name, i) => [name, {
      type: 'object',
      properties: { label: { type: 'string' }, ...Object.fromEntries(names.slice(i + 1).map((next) => [next.toLowerCase(), { $ref: `#/components/schemas/${next}` }])) },
    }]));
    const description = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Linked', version: '1' },
      servers: [{ url: 'https://linked.example' }],
      components: { schemas },
      paths: {
        '/nodes': {
          get: { operationId: 'getNode', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node0' } } } } } },
          post: {
            operationId: 'addNode',
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { node: { $ref: '#/components/schemas/Node0' } } } } } },
            responses: { 204: { description: 'added' } },
          },
        },
      },
    });
    const linked = await importOpenApi(description, undefined, { provider: 'linked' });
    const add = linked.imported.tasks.find((entry) => entry.task.id === 'linked.add_node')!;
    const input = add.task.input as { definitions?: object; properties: { node: object } };
    expect(Object.keys(input.definitions ?? {}).length).to.be.at.most(100);
    expect(add.notes.join(' ')).to.match(/its input is described \d linked schemas? deep/);
    const get = linked.imported.tasks.find((entry) => entry.task.id === 'linked.get_node')!;
    expect(Object.keys((get.task.output as { definitions?: object }).definitions ?? {}).length).to.be.at.most(50);
    expect(loadBesideBuiltin(linked).tasks.has('linked.add_node')).to.equal(true);
  });

  it('reads Swagger 2.0 and takes --base-url for a description without a host', async () => {
    const swagger = `swagger: "2.0"
info: {title: Tiny, version: "1"}
basePath: /api
securityDefinitions: {key: {type: apiKey, in: query, name: api_key}}
security: [{key: []}]
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters: [{name: id, in: path, required: true, type: string}]
      responses: {"200": {description: ok, schema: {type: object, properties: {id: {type: string}}}}}
`;
    const tiny = await importOpenApi(swagger, undefined, { provider: 'tiny', baseUrl: 'https://tiny.example/api' });
    expect(tiny.format).to.equal('swagger 2.0');
    expect(tiny.imported.provider).to.deep.include({ base_url: 'https://tiny.example/api', auth: { type: 'api_key', query: 'api_key', template: '{secret}' } });
    expect(tiny.imported.tasks[0].task).to.deep.include({ id: 'tiny.get_item', kind: 'data', output: { type: 'object', properties: { id: { type: 'string' } } } });
  });
});
