import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { checkTaskInput, taskInputProblems } from '../../src/domain/catalog/input.js';
import { buildCatalog, builtinCatalogFiles, CatalogError, loadCatalog } from '../../src/domain/catalog/load.js';
import { presentProvider, presentTask } from '../../src/domain/catalog/present.js';
import type { Catalog, Task } from '../../src/domain/catalog/types.js';
import { GatewayError } from '../../src/domain/errors.js';
import { InputRefused } from '../../src/providers/errors.js';
import { builtinHandlers } from '../../src/providers/builtin/index.js';
import { buildProbeRequest, buildTaskRequest } from '../../src/providers/http-task.js';

const fixture = path.resolve('test/fixtures/catalog/extra.yaml');
let dir: string;

before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-test-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** The problems of loading the built-in catalog plus one file; empty when it loads. */
function problemsOf(file: string): string[] {
  try {
    buildCatalog([...builtinCatalogFiles(), file], {}, {});
    return [];
  } catch (error) {
    if (error instanceof CatalogError) return error.problems;
    throw error;
  }
}

const config = (overrides: Record<string, unknown> = {}) => loadConfig({ env: {}, overrides: { log: { level: 'silent' }, ...overrides } });

const provider = { slug: 'acme', name: 'Acme', base_url: 'https://api.acme.example', auth: { type: 'none' } };
const task = (overrides: Record<string, unknown> = {}) => ({
  id: 'acme.thing.get',
  provider: 'acme',
  capability: 'thing.get',
  kind: 'data',
  title: 'Get a thing',
  description: 'Gets a thing.',
  input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  request: { method: 'GET', path: '/things/{name}' },
  ...overrides,
});

describe('built-in catalog', () => {
  let catalog: Catalog;
  before(() => {
    catalog = loadCatalog(config());
  });

  it('loads at least 8 providers and 40 tasks across all four kinds', () => {
    expect(catalog.providers.size).to.be.at.least(8);
    expect(catalog.tasks.size).to.be.at.least(40);
    const kinds = new Set([...catalog.tasks.values()].map((t) => t.kind));
    expect([...kinds].sort()).to.deep.equal(['account', 'action', 'data', 'utility']);
    expect(catalog.version).to.match(/^[0-9a-f]{12}$/);
  });

  it('offers real alternatives: capabilities served by several providers', () => {
    const providersOf = (capability: string) => catalog.tasksForCapability(capability).map((t) => t.provider);
    expect(providersOf('weather.current')).to.include.members(['open-meteo', 'openweathermap']);
    expect(providersOf('email.send')).to.include.members(['resend', 'sendgrid', 'google']);
    expect(providersOf('geocode.search')).to.have.length.at.least(2);
  });

  it('declares the three auth styles, with OAuth2 probes naming the account id and name', () => {
    const types = new Set([...catalog.providers.values()].map((p) => p.auth.type));
    expect([...types].sort()).to.deep.equal(['api_key', 'none', 'oauth2']);
    for (const slug of ['github', 'google', 'slack']) {
      const p = catalog.providers.get(slug)!;
      expect(p.auth.type).to.equal('oauth2');
      expect(p.probe?.account_id, slug).to.match(/^\//);
      expect(p.probe?.account_name, slug).to.match(/^\//);
    }
    expect(catalog.providers.get('builtin')!.auth.type).to.equal('none');
  });

  it('gives every utility task a handler that answers its own example input', async () => {
    const examples: Record<string, unknown> = {
      'builtin.uuid.generate': { version: 7, count: 3 },
      'builtin.time.now': { timezone: 'Asia/Tokyo' },
      'builtin.time.convert': { instant: '2026-03-01T12:00:00Z', timezone: 'America/New_York' },
      'builtin.text.hash': { text: 'abc' },
      'builtin.text.slugify': { text: 'Crème Brûlée Recipe!' },
      'builtin.base64.encode': { text: 'héllo' },
      'builtin.base64.decode': { base64: 'aMOpbGxv' },
      'builtin.units.convert': { value: 100, from: 'C', to: 'F' },
      'builtin.json.extract': { document: { a: [{ b: 1 }] }, path: '$.a[0].b' },
    };
    const utilities = [...catalog.tasks.values()].filter((t) => t.kind === 'utility');
    expect(utilities.map((t) => t.id).sort()).to.deep.equal(Object.keys(examples).sort());
    const answers: Record<string, any> = {};
    for (const utility of utilities) {
      const input = structuredClone(examples[utility.id]) as Record<string, unknown>;
      checkTaskInput(utility, input);
      answers[utility.id] = await builtinHandlers[utility.handler!](input);
    }
    expect(answers['builtin.uuid.generate'].uuids).to.have.length(3);
    expect(answers['builtin.time.now'].utc_offset).to.equal('+09:00');
    expect(answers['builtin.time.convert'].local).to.equal('2026-03-01T07:00:00-05:00');
    expect(answers['builtin.text.hash'].digest).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(answers['builtin.text.slugify'].slug).to.equal('creme-brulee-recipe');
    expect(answers['builtin.base64.encode'].base64).to.equal('aMOpbGxv');
    expect(answers['builtin.base64.decode'].text).to.equal('héllo');
    expect(answers['builtin.units.convert'].result).to.equal(212);
    expect(answers['builtin.json.extract']).to.deep.equal({ path: '$.a[0].b', found: true, value: 1 });
  });
});

describe('built-in utility handlers', () => {
  const run = (name: string, input: unknown) => builtinHandlers[name](input) as any;
  /** A handler refuses input as the caller's to fix (the run answers it as invalid_input naming the fields). */
  const refused = (name: string, input: unknown): InputRefused => {
    try {
      run(name, input);
    } catch (error) {
      expect(error).to.be.instanceOf(InputRefused);
      return error as InputRefused;
    }
    throw new Error(`${name} accepted ${JSON.stringify(input)}`);
  };

  it('generates v4 and time-ordered v7 UUIDs', () => {
    expect(run('uuid.generate', {}).uuids[0]).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const v7 = run('uuid.generate', { version: 7, count: 2 }).uuids;
    expect(v7[0]).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(v7[0].replace(/-/g, '').slice(0, 12), 16)).to.be.closeTo(Date.now(), 5000);
  });

  it('reads time zones, and refuses unknown zones and dates with the field named', () => {
    expect(run('time.now', {}).utc_offset).to.equal('+00:00');
    expect(run('time.convert', { instant: '2026-07-01T12:00:00Z', timezone: 'Europe/Paris' }).local).to.equal('2026-07-01T14:00:00+02:00');
    expect(refused('time.now', { timezone: 'Mars/Olympus' }).problems).to.deep.equal([
      { name: 'timezone', reason: 'must be an IANA time zone such as Europe/Paris' },
    ]);
    expect(refused('time.convert', { instant: 'yesterday', timezone: 'UTC' }).problems[0].name).to.equal('instant');
  });

  it('hashes, encodes and decodes', () => {
    expect(run('text.hash', { text: 'abc', algorithm: 'md5' }).digest).to.equal('900150983cd24fb0d6963f7d28e17f72');
    expect(run('text.hash', { text: 'abc', algorithm: 'sha1', encoding: 'base64' }).digest).to.equal('qZk+NkcGgWq6PiVxeFDCbJzQ2J0=');
    expect(run('base64.encode', { text: '??>', url_safe: true }).base64).to.equal('Pz8-');
    expect(run('base64.decode', { base64: 'Pz8-' }).text).to.equal('??>');
    expect(run('base64.decode', { base64: '//79' })).to.deep.equal({ hex: 'fffefd' });
    refused('base64.decode', { base64: 'not base64!' });
  });

  it('converts units within a dimension and refuses across dimensions', () => {
    expect(run('units.convert', { value: 1, from: 'mi', to: 'km' }).result).to.equal(1.609344);
    expect(run('units.convert', { value: 0, from: 'K', to: 'C' }).result).to.equal(-273.15);
    expect(run('units.convert', { value: 1, from: 'GiB', to: 'MB' }).result).to.equal(1073.741824);
    expect(run('units.convert', { value: 0.1 + 0.2, from: 'm', to: 'm' }).result).to.equal(0.3);
    expect(refused('units.convert', { value: 1, from: 'kg', to: 'km' }).problems).to.deep.equal([{ name: 'to', reason: 'must be a mass unit like kg' }]);
    expect(refused('units.convert', { value: 1, from: 'furlong', to: 'km' }).problems[0].name).to.equal('from');
  });

  it('extracts by JSON pointer and dotted path, and says when nothing is there', () => {
    const document = { 'a/b': { c: [10, 20] }, 'x.y': true };
    expect(run('json.extract', { document, path: '/a~1b/c/1' }).value).to.equal(20);
    expect(run('json.extract', { document, path: '$["x.y"]' }).value).to.equal(true);
    expect(run('json.extract', { document, path: '' }).value).to.deep.equal(document);
    expect(run('json.extract', { document, path: '/a~1b/c/2' })).to.deep.equal({ path: '/a~1b/c/2', found: false, value: null });
    refused('json.extract', { document, path: 'a..b' });
  });

  it('slugifies with a separator and a length cut at a word boundary', () => {
    expect(run('text.slugify', { text: '  Hello, World — 2026! ', separator: '_' }).slug).to.equal('hello_world_2026');
    expect(run('text.slugify', { text: 'one two three', max_length: 9 }).slug).to.equal('one-two');
    expect(run('text.slugify', { text: 'one two three', max_length: 7 }).slug).to.equal('one-two');
    expect(run('text.slugify', { text: 'abcdefgh', max_length: 3 }).slug).to.equal('abc');
  });
});

describe('catalog validation', () => {
  it('names the file and the path of each bad field', () => {
    const file = write('bad.yaml', [
      'providers:',
      '  - {slug: Acme, name: Acme, base_url: ftp://x, auth: {type: api_key, header: X-Key, query: key}}',
      'tasks:',
      '  - {id: acme.a, provider: acme, capability: Weather, kind: fetch, title: t, description: d, price_usd: -1, input: {type: object}, status: gone}',
    ].join('\n'));
    expect(problemsOf(file)).to.have.members([
      `${file}: providers[0].slug: must be a slug of a-z, 0-9 and -`,
      `${file}: providers[0].base_url: must be a valid uri with a scheme matching the https|http pattern`,
      `${file}: providers[0].auth: contains a conflict between exclusive peers [header, query]`,
      `${file}: tasks[0].capability: must be lower-case dotted words such as weather.current`,
      `${file}: tasks[0].kind: must be one of [data, action, account, utility]`,
      `${file}: tasks[0].price_usd: must be greater than or equal to 0`,
      `${file}: tasks[0].status: must be one of [active, retired, broken]`,
      // The provider's slug is not a slug, so no provider acme is declared.
      `${file}: tasks[0].provider: provider acme is not declared`,
    ]);
  });

  it('checks tasks against the merged catalog: provider, id prefix, duplicates, handlers, requests', () => {
    const file = write('cross.json', {
      providers: [provider],
      tasks: [
        task({ provider: 'nobody', id: 'nobody.x' }),
        task({ id: 'other.thing' }),
        task({ id: 'open-meteo.weather.current', provider: 'open-meteo' }),
        task({ id: 'acme.no.request', request: undefined }),
        task({ id: 'acme.util', kind: 'utility', request: undefined, handler: 'time.now' }),
        task({ id: 'builtin.nothing', provider: 'builtin', kind: 'utility', request: undefined, handler: 'nothing' }),
        task({ id: 'builtin.fetch', provider: 'builtin', kind: 'data' }),
        task({ id: 'acme.account', kind: 'account' }),
      ],
    });
    const problems = problemsOf(file);
    const at = (index: number, field: string) => problems.filter((p) => p.startsWith(`${file}: tasks[${index}].${field}: `));
    expect(at(0, 'provider')).to.deep.equal([`${file}: tasks[0].provider: provider nobody is not declared`]);
    expect(at(1, 'id')).to.deep.equal([`${file}: tasks[1].id: must start with its provider: acme.`]);
    expect(at(2, 'id')[0]).to.equal(`${file}: tasks[2].id: task id open-meteo.weather.current is already declared (config/catalog/10-public-data.yaml: tasks[0])`);
    expect(at(3, 'request')).to.deep.equal([`${file}: tasks[3].request: is required for data tasks`]);
    expect(at(4, 'provider')).to.deep.equal([`${file}: tasks[4].provider: utility tasks belong to provider builtin`]);
    expect(at(5, 'handler')[0]).to.match(/no built-in handler nothing; one of .*time\.now/);
    expect(at(6, 'kind')).to.deep.equal([`${file}: tasks[6].kind: tasks of provider builtin must be of kind utility`]);
    expect(at(7, 'kind')[0]).to.match(/account tasks act in an end user's account; provider acme has auth none/);
  });

  it('compiles input schemas and checks that templates name input fields', () => {
    const file = write('input.yaml', JSON.stringify({
      providers: [provider],
      tasks: [
        task({ input: { type: 'object', properties: { name: { type: 'strin' } } } }),
        task({ id: 'acme.b', input: { type: 'array' } }),
        task({ id: 'acme.c', input: { type: 'object', properties: { name: { type: 'string' } } } }),
        task({ id: 'acme.d', request: { method: 'POST', path: '/things/{name}', query: { q: '{query}' }, body: { x: '{missing}' } } }),
        task({ id: 'acme.e', capability: 'weather.current' }),
      ],
    }));
    const problems = problemsOf(file);
    expect(problems.find((p) => p.startsWith(`${file}: tasks[0].input: `))).to.match(/is not a valid JSON Schema: .*type/);
    expect(problems).to.include(`${file}: tasks[1].input.type: must be [object]`);
    expect(problems).to.include(`${file}: tasks[2].request.path: names {name}, which input must make required or give a default`);
    expect(problems).to.include(`${file}: tasks[3].request.query.q: names {query}, which is not a property of input`);
    expect(problems).to.include(`${file}: tasks[3].request.body: names {missing}, which is not a property of input`);
    // A task may share a capability with a built-in one and still declare its own inputs: runs pick the routes that accept the input.
    expect(problems.filter((p) => p.startsWith(`${file}: tasks[4].`))).to.deep.equal([]);
  });

  it('reports every problem: an unknown top-level key hides nothing, and a task with a bad field is still checked on the others', () => {
    const file = write('every.yaml', JSON.stringify({
      extra: 1,
      providers: [provider, { ...provider, slug: 'beta', base_url: 'ftp://beta' }, 'not an entry'],
      tasks: [
        task({ provider: 'nobody', id: 'nobody.x', description: undefined }),
        task({ id: 'acme.price', price_usd: -1, request: { method: 'GET', path: '/things/{id}' } }),
        task({ id: 'acme.schema', input: { type: 'object', properties: { name: { type: 'strin' } }, required: ['name'] }, request: { method: 'GET', path: '/x/{id}' } }),
        task({ id: 'beta.thing', provider: 'beta', title: '' }),
      ],
    }));
    expect(problemsOf(file)).to.have.members([
      `${file}: extra: is not allowed`,
      `${file}: providers[1].base_url: must be a valid uri with a scheme matching the https|http pattern`,
      `${file}: providers[2]: must be of type object`,
      `${file}: tasks[0].description: is required`,
      `${file}: tasks[0].provider: provider nobody is not declared`,
      `${file}: tasks[1].price_usd: must be greater than or equal to 0`,
      `${file}: tasks[1].request.path: names {id}, which is not a property of input`,
      `${file}: tasks[2].input: is not a valid JSON Schema: schema is invalid: data/properties/name/type must be equal to one of the allowed values, data/properties/name/type must be array, data/properties/name/type must match a schema in anyOf`,
      `${file}: tasks[2].request.path: names {id}, which is not a property of input`,
      // beta is declared, though its base_url is bad: its task is not told otherwise.
      `${file}: tasks[3].title: is not allowed to be empty`,
    ]);
  });

  it('takes an output schema, held to the JSON Schema meta-schema, known keywords and local references', () => {
    const output = (schema: unknown) => task({ id: `acme.out${Math.random().toString(36).slice(2, 8)}`, output: schema });
    const answer = { type: 'array', items: { $ref: '#/definitions/thing' }, definitions: { thing: { type: 'object', properties: { id: { type: 'integer', readOnly: true } } } } };
    const good = write('output-good.yaml', JSON.stringify({ providers: [provider], tasks: [task({ output: answer })] }));
    expect(buildCatalog([...builtinCatalogFiles(), good], {}, {}).catalog.tasks.get('acme.thing.get')!.output).to.deep.equal(answer);
    const file = write('output-bad.yaml', JSON.stringify({
      providers: [provider],
      tasks: [
        output({ type: 'object', properties: { id: { type: 'strin' } } }),
        output({ type: 'object', propertys: { id: { type: 'string' } } }),
        output({ type: 'array', items: [{ type: 'string', example: 'x' }] }),
        output({ allOf: [{ $ref: '#/definitions/missing' }, { $ref: 'https://example.com/schema.json' }] }),
        output('object'),
      ],
    }));
    expect(problemsOf(file)).to.deep.equal([
      `${file}: tasks[4].output: must be of type object`,
      `${file}: tasks[0].output.properties.id.type: must be equal to one of the allowed values`,
      `${file}: tasks[1].output.propertys: is not a JSON Schema keyword`,
      `${file}: tasks[2].output.items[0].example: is not a JSON Schema keyword`,
      `${file}: tasks[3].output.allOf[0].$ref: must be a #/... pointer into this schema`,
      `${file}: tasks[3].output.allOf[1].$ref: must be a #/... pointer into this schema`,
    ]);
  });

  it("annotates each task with what running it does: implied by its kind and method, the catalog's annotations on top", () => {
    // An account task needs a provider that takes a credential.
    const keyed = { ...provider, auth: { type: 'api_key', header: 'X-Key', template: '{secret}' } };
    const annotated = (overrides: Record<string, unknown>) => {
      const file = write(`annotated-${Math.random().toString(36).slice(2, 8)}.yaml`, JSON.stringify({ providers: [keyed], tasks: [task(overrides)] }));
      return buildCatalog([...builtinCatalogFiles(), file], {}, {}).catalog.tasks.get('acme.thing.get')!.annotations;
    };
    const reads = { read_only: true, destructive: false, idempotent: true };
    expect(annotated({})).to.deep.equal(reads);
    expect(annotated({ kind: 'action', request: { method: 'POST', path: '/things' } })).to.deep.equal({ read_only: false, destructive: true, idempotent: false });
    const account = (method: string) => annotated({ kind: 'account', request: { method, path: '/things/{name}' } });
    expect(account('GET')).to.deep.equal(reads);
    expect(account('POST')).to.deep.equal({ read_only: false, destructive: false, idempotent: false });
    expect(account('PUT')).to.deep.equal({ read_only: false, destructive: true, idempotent: true });
    expect(account('PATCH')).to.deep.equal({ read_only: false, destructive: true, idempotent: false });
    expect(account('DELETE')).to.deep.equal({ read_only: false, destructive: true, idempotent: true });
    // Declared members win; one declared read-only action neither destroys nor changes anything when repeated.
    expect(annotated({ kind: 'action', request: { method: 'POST', path: '/things' }, annotations: { destructive: false, idempotent: true } })).to.deep.equal({
      read_only: false,
      destructive: false,
      idempotent: true,
    });
    expect(annotated({ kind: 'action', request: { method: 'POST', path: '/things' }, annotations: { read_only: true } })).to.deep.equal(reads);
    expect(annotated({ annotations: { read_only: false } })).to.deep.equal({ read_only: false, destructive: false, idempotent: true });

    const file = write('annotations-bad.yaml', JSON.stringify({
      providers: [provider],
      tasks: [
        task({ id: 'acme.a', annotations: { read_only: true, destructive: true } }),
        task({ id: 'acme.b', annotations: { safe: true } }),
        task({ id: 'acme.c', annotations: { idempotent: 'yes' } }),
      ],
    }));
    expect(problemsOf(file)).to.deep.equal([
      `${file}: tasks[0].annotations: cannot be both read_only and destructive`,
      `${file}: tasks[1].annotations.safe: is not allowed`,
      `${file}: tasks[2].annotations.idempotent: must be a boolean`,
    ]);
  });

  it('reports unreadable, malformed and misshapen files in one line each', () => {
    expect(problemsOf(path.join(dir, 'missing.yaml'))).to.deep.equal([`${path.join(dir, 'missing.yaml')}: cannot be read`]);
    const broken = write('broken.json', '{"providers": [');
    expect(problemsOf(broken)[0]).to.match(new RegExp(`^${broken}: is not valid JSON: `));
    const yaml = write('broken.yaml', 'providers: [a\n b: c');
    expect(problemsOf(yaml)[0]).to.match(new RegExp(`^${yaml}: is not valid YAML: `));
    expect(problemsOf(write('top.yaml', 'task: []'))).to.deep.equal([`${path.join(dir, 'top.yaml')}: task: is not allowed`]);
  });

  it('lets a later file override only the base_url of a declared provider', () => {
    const ok = write('override.yaml', 'providers:\n  - {slug: open-meteo, base_url: "http://127.0.0.1:1"}');
    expect(buildCatalog([...builtinCatalogFiles(), ok], {}, {}).catalog.providers.get('open-meteo')!.base_url).to.equal('http://127.0.0.1:1');
    const bad = write('override-bad.yaml', 'providers:\n  - {slug: open-meteo, name: Other, base_url: "http://127.0.0.1:1"}');
    expect(problemsOf(bad)).to.deep.equal([
      `${bad}: providers[0]: provider open-meteo is already declared (config/catalog/10-public-data.yaml: providers[0]); a later file may only override its base_url, not name`,
    ]);
  });

  it('throws one CatalogError whose message is the first problem and a count', () => {
    const file = write('two.yaml', 'tasks:\n  - {id: x}\n');
    try {
      buildCatalog([file], {}, {});
      expect.fail('loaded');
    } catch (error) {
      expect(error).to.be.instanceOf(CatalogError);
      const { problems, message } = error as CatalogError;
      expect(problems.length).to.be.greaterThan(2);
      expect(message).to.equal(`${problems[0]} (and ${problems.length - 1} more problems; \`gateway catalog validate FILE\` lists all)`);
    }
  });
});

describe('catalog loading', () => {
  // Other suites of the same mocha run may set this variable too; leave it as it was found.
  let found: string | undefined;
  beforeEach(() => {
    found = process.env.CATALOG_TEST_ACME_KEY;
  });
  afterEach(() => {
    if (found === undefined) delete process.env.CATALOG_TEST_ACME_KEY;
    else process.env.CATALOG_TEST_ACME_KEY = found;
  });

  it('loads catalog.files after the built-in catalog, with config base_url overriding both', () => {
    const withFile = loadCatalog(config({ catalog: { files: [fixture] } }));
    expect(withFile.providers.get('open-meteo')!.base_url).to.equal('http://127.0.0.1:9/open-meteo');
    expect(withFile.tasksForCapability('weather.current').map((t) => t.id)).to.include('acme.weather.current');
    const overridden = loadCatalog(config({ catalog: { files: [fixture] }, providers: { 'open-meteo': { base_url: 'http://127.0.0.1:7' } } }));
    expect(overridden.providers.get('open-meteo')!.base_url).to.equal('http://127.0.0.1:7');
  });

  it('changes the version exactly when the content changes', () => {
    const base = loadCatalog(config()).version;
    expect(loadCatalog(config()).version).to.equal(base);
    const same = write('same.yaml', 'providers:\n  - {slug: open-meteo, base_url: "https://api.open-meteo.com"}');
    expect(loadCatalog(config({ catalog: { files: [same] } })).version).to.equal(base);
    const moved = write('moved.yaml', 'providers:\n  - {slug: open-meteo, base_url: "https://meteo.example"}');
    expect(loadCatalog(config({ catalog: { files: [moved] } })).version).to.not.equal(base);
    expect(loadCatalog(config({ catalog: { files: [fixture] } })).version).to.not.equal(base);
  });

  it('reads platform credentials from the named variable at load, outside the version and every presentation', () => {
    process.env.CATALOG_TEST_ACME_KEY = 'acme-platform-secret-value';
    const catalog = loadCatalog(config({ catalog: { files: [fixture] } }));
    delete process.env.CATALOG_TEST_ACME_KEY;
    const acme = catalog.providers.get('acme')!;
    expect(acme.platformSecret!()).to.equal('acme-platform-secret-value');
    expect(loadCatalog(config({ catalog: { files: [fixture] } })).version).to.equal(catalog.version);
    expect(loadCatalog(config({ catalog: { files: [fixture] } })).providers.get('acme')!.platformSecret!()).to.equal(undefined);
    const shown = JSON.stringify([acme, presentProvider(acme, 3), presentTask(catalog.tasks.get('acme.weather.current')!, acme)]);
    expect(shown).to.not.include('acme-platform-secret-value');
    expect(presentProvider(acme, 3).platform_credential).to.equal(true);
  });
});

describe('task input validation', () => {
  const catalog = () => loadCatalog(config());
  const weather = (): Task => catalog().tasks.get('open-meteo.weather.forecast')!;

  it('answers per-field problems and fills declared defaults', () => {
    const task = weather();
    expect(taskInputProblems(task, { latitude: 'north', extra: 1 })).to.deep.equal([
      { name: 'longitude', reason: 'is required' },
      { name: 'extra', reason: 'is not allowed' },
      { name: 'latitude', reason: 'must be number' },
    ]);
    const input: Record<string, unknown> = { latitude: 48.85, longitude: 2.35 };
    expect(taskInputProblems(task, input)).to.deep.equal([]);
    expect(input.days).to.equal(7);
  });

  it('names nested fields and enum choices', () => {
    const task = catalog().tasks.get('google.calendar.events.create')!;
    const problems = taskInputProblems(task, { summary: 'x', start: 'soon', end: '2026-01-01T10:00:00Z', attendees: [{ email: 'nope' }] });
    expect(problems).to.deep.equal([
      { name: 'start', reason: 'must match format "date-time"' },
      { name: 'attendees[0].email', reason: 'must match format "email"' },
    ]);
    expect(taskInputProblems(catalog().tasks.get('builtin.text.hash')!, { text: 'x', algorithm: 'crc' })).to.deep.equal([
      { name: 'algorithm', reason: 'must be one of "sha256", "sha1", "sha512", "md5"' },
    ]);
    expect(taskInputProblems(task, 'text')).to.deep.equal([{ name: 'input', reason: 'must be object' }]);
  });

  it('throws 400 invalid_input with invalid_params', () => {
    try {
      checkTaskInput(weather(), {});
      expect.fail('accepted');
    } catch (error) {
      expect((error as GatewayError).code).to.equal('invalid_input');
      expect((error as GatewayError).extras.invalid_params).to.deep.equal([
        { name: 'latitude', reason: 'is required' },
        { name: 'longitude', reason: 'is required' },
      ]);
    }
  });
});

/** The built-in catalog's templates as the runner renders them: real endpoints with the providers' own shapes. */
describe('built-in request templates', () => {
  const catalog = () => loadCatalog(config());
  const render = (id: string, input: Record<string, unknown>, secret?: string) => {
    const c = catalog();
    const t = c.tasks.get(id)!;
    checkTaskInput(t, input);
    return buildTaskRequest(c.providers.get(t.provider)!, t.request!, input, secret, { timeoutMs: 1000, maxResponseBytes: 1024 * 1024 });
  };

  it('encodes path fields and leaves out absent query fields, with no secret for public data', () => {
    const request = render('wikipedia.page.summary', { title: 'AC/DC band' });
    expect(request.url).to.equal('https://en.wikipedia.org/api/rest_v1/page/summary/AC%2FDC%20band');
    expect(request.headers).to.not.have.property('authorization');
    expect(render('openlibrary.books.search', { author: 'Tolkien' }).url).to.equal('https://openlibrary.org/search.json?author=Tolkien&limit=10');
    expect(render('frankfurter.currency.convert', { amount: 5, from: 'USD', to: 'EUR,JPY' }).url).to.equal(
      'https://api.frankfurter.dev/v1/latest?amount=5&base=USD&symbols=EUR%2CJPY',
    );
  });

  it('sends GitHub issues, SendGrid mail and Gmail raw MIME in each provider\'s shape', () => {
    const issue = render('github.issues.create', { owner: 'o', repo: 'r', title: 'Bug' }, 'gho_token');
    expect(issue.url).to.equal('https://api.github.com/repos/o/r/issues');
    expect(JSON.parse(issue.body as string)).to.deep.equal({ title: 'Bug' });
    expect(issue.headers).to.include({ authorization: 'Bearer gho_token', accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' });
    const mail = { from: 'a@example.com', to: 'b@example.com', subject: 'Hi', text: 'Hello' };
    expect(JSON.parse(render('sendgrid.email.send', mail, 'SG.key').body as string)).to.deep.equal({
      personalizations: [{ to: [{ email: 'b@example.com' }] }],
      from: { email: 'a@example.com' },
      subject: 'Hi',
      content: [{ type: 'text/plain', value: 'Hello' }],
    });
    const raw = JSON.parse(render('google.gmail.send', mail, 'ya29').body as string).raw;
    expect(Buffer.from(raw, 'base64url').toString('utf8')).to.equal(
      'From: a@example.com\r\nTo: b@example.com\r\nSubject: Hi\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\nHello',
    );
  });

  it('form-encodes Stripe and puts API keys in a header or the query', () => {
    const customer = render('stripe.customers.create', { email: 'a@example.com', name: 'Ada L' }, 'sk_test_1');
    expect(customer.body).to.equal('email=a%40example.com&name=Ada+L');
    expect(customer.headers).to.include({ 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer sk_test_1' });
    expect(render('newsapi.sources.list', {}, 'n3ws').headers['x-api-key']).to.equal('n3ws');
    expect(render('openweathermap.weather.current', { latitude: 1, longitude: 2 }, 'owm').url).to.equal(
      'https://api.openweathermap.org/data/2.5/weather?lat=1&lon=2&units=metric&appid=owm',
    );
  });

  it('probes with a fixed query and the credential where the provider takes it', () => {
    const c = catalog();
    expect(buildProbeRequest(c.providers.get('slack')!, 'xoxb-1', 1000)).to.deep.include({ method: 'POST', url: 'https://slack.com/api/auth.test' });
    expect(buildProbeRequest(c.providers.get('openweathermap')!, 'k', 1000).url).to.equal('https://api.openweathermap.org/data/2.5/weather?lat=0&lon=0&appid=k');
  });
});
