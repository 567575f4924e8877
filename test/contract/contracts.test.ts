import { Ajv } from 'ajv';
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { buildCatalog, builtinCatalogFiles } from '../../src/domain/catalog/load.js';
import { eachDialect } from '../support/harness.js';
import { startStandIn, type DocumentedRequest } from './stand-in.js';

/**
 * Every built-in task against its provider's published API reference. The expected requests and example
 * answers in test/fixtures/contracts/<provider>.yaml are written by hand from each provider's reference,
 * never derived from the catalog's templates: a template that drifts from the documentation fails here.
 */

interface TaskContract {
  /** Where the request and the example answer were taken from. */
  reference: string;
  input: Record<string, unknown>;
  request: DocumentedRequest;
  /** The documented example answer. */
  response?: unknown;
  status?: number;
  /** Utilities: the exact output, and for random or clock-bound members a pattern per JSON pointer. */
  output?: unknown;
  output_patterns?: Record<string, string>;
}

interface ProviderContract {
  provider: string;
  reference: string;
  /** The provider's documented host and base path. */
  base_url?: string;
  /** Headers the provider documents on every request; `{secret}` is the credential. */
  headers?: Record<string, string>;
  /** Query parameters the provider documents on every request (OpenWeatherMap's appid). */
  query?: Record<string, string>;
  probe?: { reference: string; request: DocumentedRequest; response: unknown; account_id: string | null; account_name: string | null };
  tasks: Record<string, TaskContract>;
}

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/contracts');
const contracts: ProviderContract[] = readdirSync(fixtures)
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => load(readFileSync(path.join(fixtures, name), 'utf8')) as ProviderContract);

const builtin = buildCatalog(builtinCatalogFiles(), {}, {}).catalog;
const standIn = await startStandIn();
after(() => standIn.close());

/** A credential as a customer would send it; the fixtures' `{secret}`. */
const SECRET = 'contract-test-credential-0001';
const USER = 'user:contract-tester';

const withSecret = (values: Record<string, string> | undefined) =>
  values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value).split('{secret}').join(SECRET)]));

/** The request the provider documents, with the credential and every-request headers and query filled in. */
function documented(contract: ProviderContract, request: DocumentedRequest): DocumentedRequest {
  const query = { ...withSecret(request.query), ...withSecret(contract.query) };
  const headers = { ...withSecret(contract.headers), ...withSecret(request.headers) };
  const out: DocumentedRequest = { method: request.method, path: request.path };
  if (Object.keys(query).length) out.query = query;
  if (request.json !== undefined) out.json = request.json;
  if (request.form !== undefined) out.form = withSecret(request.form);
  if (Object.keys(headers).length) out.headers = headers;
  return out;
}

/** RFC 6901 lookup in a run's output. */
function at(document: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, step) => (node as Record<string, unknown> | undefined)?.[step.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

const ajv = new Ajv({ allErrors: true, strict: false });

/** A task that declares its output: the documented answer (the run's output) fits it. */
function fitsDeclaredOutput(id: string, output: unknown): void {
  const declared = builtin.tasks.get(id)!.output;
  if (!declared) return;
  const validate = ajv.compile(declared);
  expect(validate(output), `${id}: the documented answer against the declared output: ${ajv.errorsText(validate.errors)}`).to.equal(true);
}

const providerOverrides = Object.fromEntries(
  [...builtin.providers.values()].filter((provider) => provider.base_url).map((provider) => [provider.slug, { base_url: standIn.baseUrlFor(provider.slug, provider.base_url) }]),
);

describe('contracts: coverage of the built-in catalog', () => {
  const covered = new Map(contracts.flatMap((contract) => Object.keys(contract.tasks).map((id) => [id, contract.provider])));

  it('has one contract file per built-in provider and a contract for every built-in task', () => {
    expect(contracts.map((contract) => contract.provider).sort()).to.deep.equal([...builtin.providers.keys()].sort());
    const missing = [...builtin.tasks.keys()].filter((id) => !covered.has(id));
    expect(missing, 'tasks without a contract').to.deep.equal([]);
    const unknown = [...covered.keys()].filter((id) => !builtin.tasks.has(id));
    expect(unknown, 'contracts for tasks the catalog lacks').to.deep.equal([]);
    for (const [id, provider] of covered) expect(builtin.tasks.get(id)?.provider, id).to.equal(provider);
  });

  it('declares an output for the tasks whose provider documents its answer: every utility, and twelve of the public data tasks', () => {
    const declared = [...builtin.tasks.values()].filter((task) => task.output);
    expect(declared.filter((task) => task.kind === 'utility')).to.have.length([...builtin.tasks.values()].filter((task) => task.kind === 'utility').length);
    expect(declared.filter((task) => task.kind !== 'utility')).to.have.length(12);
  });

  it('declares each provider on the documented host and base path, with the documented probe', () => {
    for (const contract of contracts.filter((c) => c.base_url)) {
      expect(builtin.providers.get(contract.provider)?.base_url, contract.provider).to.equal(contract.base_url);
    }
    for (const provider of builtin.providers.values()) {
      const contract = contracts.find((c) => c.provider === provider.slug);
      expect(Boolean(contract?.probe), `${provider.slug} probe`).to.equal(Boolean(provider.probe));
    }
  });
});

eachDialect(
  'contracts: built-in tasks run against stand-ins of their documented APIs',
  (h) => {
    function run(contract: ProviderContract, id: string, input: object) {
      const task = builtin.tasks.get(id)!;
      const headers: Record<string, string> = { 'svc-only': contract.provider };
      if (builtin.providers.get(contract.provider)!.auth.type !== 'none') headers['svc-credential'] = SECRET;
      if (task.kind === 'account') headers['svc-principal'] = USER;
      return h().request({ method: 'POST', url: `/v1/tasks/${id}/run`, payload: input, headers });
    }

    for (const contract of contracts) {
      describe(contract.provider, () => {
        if (contract.probe) {
          const probe = contract.probe;
          it('probe: checks a credential with the documented request and finds the account in the documented answer', async () => {
            const oauth = builtin.providers.get(contract.provider)!.auth.type === 'oauth2';
            standIn.arm(contract.provider, documented(contract, probe.request), { status: 200, body: probe.response });
            const res = await h().request({
              method: 'POST',
              url: '/v1/connections',
              payload: { provider: contract.provider, principal: USER, credential: oauth ? { access_token: SECRET } : SECRET },
            });
            expect(standIn.arrived).to.deep.equal([documented(contract, probe.request)]);
            expect(res.statusCode, res.payload).to.equal(200);
            expect(res.json).to.include({ provider: contract.provider, account_id: probe.account_id, label: probe.account_name });
          });
        }

        for (const [id, task] of Object.entries(contract.tasks)) {
          it(id, async () => {
            if (contract.provider === 'builtin') return checkUtility(contract, id, task);
            const expected = documented(contract, task.request);
            standIn.arm(contract.provider, expected, { status: task.status ?? 200, body: task.response });
            const res = await run(contract, id, task.input);
            expect(standIn.arrived, `what ${contract.provider} received (run answered ${res.statusCode} ${res.payload.slice(0, 300)})`).to.deep.equal([expected]);
            expect(res.statusCode, res.payload).to.equal(200);
            expect(res.json.output).to.deep.equal(task.response ?? null);
            fitsDeclaredOutput(id, res.json.output);
            const anonymous = builtin.providers.get(contract.provider)!.auth.type === 'none';
            expect(res.json.receipt.identity).to.equal(anonymous ? 'anonymous' : 'credential');
          });
        }
      });
    }

    /** Utilities make no upstream call: their documented behaviour is the output itself. */
    async function checkUtility(contract: ProviderContract, id: string, task: TaskContract) {
      const res = await run(contract, id, task.input);
      expect(res.statusCode, res.payload).to.equal(200);
      const patterns = task.output_patterns ?? {};
      for (const [pointer, pattern] of Object.entries(patterns)) expect(String(at(res.json.output, pointer)), pointer).to.match(new RegExp(pattern));
      if (task.output !== undefined) expect(res.json.output).to.deep.equal(task.output);
      fitsDeclaredOutput(id, res.json.output);
    }
  },
  { config: { providers: providerOverrides, upstream: { timeout_ms: 5000 } } },
);
