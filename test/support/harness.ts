import type { Server, ServerInjectOptions } from '@hapi/hapi';
import { loadConfig } from '../../src/config/load.js';
import { openMigratedGateway } from '../../src/app/gateway.js';
import { createApiKey, type Role } from '../../src/domain/api-keys.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import type { Gateway } from '../../src/domain/gateway.js';
import { createServer } from '../../src/http/server.js';
import { checkAgainstDocument } from './api-document.js';
import { createMigratedTestDatabase, dialects, type Dialect, type TestDatabase } from './databases.js';

export interface Harness {
  dialect: Dialect;
  gateway: Gateway;
  server: Server;
  database: TestDatabase;
  organizationId: string;
  ownerKey: string;
  /**
   * server.inject with the owner key unless `headers.authorization` is given (null sends none). Every
   * answer is checked against the server's API document (/v1/openapi.json) for its route and status.
   */
  request(options: Omit<ServerInjectOptions, 'headers'> & { headers?: Record<string, string | null> }): Promise<InjectResult>;
  keyWithRole(role: Role): Promise<string>;
  close(): Promise<void>;
}

export interface InjectResult {
  statusCode: number;
  headers: Record<string, unknown>;
  payload: string;
  json: any;
}

export interface HarnessOptions {
  config?: Record<string, unknown>;
}

/** A migrated database with the default organization and its owner key, and a hapi server for inject. */
export async function createHarness(dialect: Dialect, options: HarnessOptions = {}): Promise<Harness> {
  const database = await createMigratedTestDatabase(dialect);
  const config = loadConfig({
    env: {},
    overrides: {
      database: { url: database.url },
      data_dir: database.dataDir,
      secret_key: 'test-secret-key-of-at-least-32-characters',
      server: { public_url: 'http://gateway.test' },
      log: { level: 'silent' },
      ...options.config,
    },
  });
  const gateway = await openMigratedGateway(config);
  const owner = await bootstrapIfEmpty(gateway);
  const server = await createServer(gateway, { port: 0 });
  await server.initialize();
  const harness: Harness = {
    dialect,
    gateway,
    server,
    database,
    organizationId: (await gateway.db.select<{ id: string }>('SELECT id FROM organizations'))[0].id,
    ownerKey: owner!.key,
    async request({ headers = {}, ...rest }) {
      const all: Record<string, string> = {};
      if (!('authorization' in headers)) all.authorization = `Bearer ${harness.ownerKey}`;
      for (const [name, value] of Object.entries(headers)) if (value !== null) all[name] = value;
      const response = await server.inject({ ...rest, headers: all });
      let json: unknown;
      try {
        json = response.payload ? JSON.parse(response.payload) : undefined;
      } catch {
        json = undefined;
      }
      const result = { statusCode: response.statusCode, headers: response.headers, payload: response.payload, json };
      checkAgainstDocument(server, rest.method ?? 'GET', rest.url, result);
      return result;
    },
    async keyWithRole(role) {
      return (await createApiKey(gateway, harness.organizationId, role)).key;
    },
    async close() {
      await server.stop();
      await gateway.db.close();
      await database.drop();
    },
  };
  return harness;
}

/** Runs a suite once per database dialect, each against a fresh database. */
export function eachDialect(title: string, suite: (get: () => Harness, dialect: Dialect) => void, options: HarnessOptions = {}): void {
  for (const dialect of dialects) {
    describe(`${title} [${dialect}]`, function () {
      let harness: Harness;
      before(async function () {
        this.timeout(60000);
        harness = await createHarness(dialect, options);
      });
      after(async () => harness?.close());
      suite(() => harness, dialect);
    });
  }
}

/** Asserts a problem+json answer with the given status and code. */
export function problem(result: InjectResult, status: number, code: string): any {
  if (result.statusCode !== status || result.json?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${result.statusCode} ${result.payload.slice(0, 500)}`);
  }
  const type = String(result.headers['content-type']);
  if (!type.startsWith('application/problem+json')) throw new Error(`expected problem+json, got ${type}`);
  for (const member of ['type', 'title', 'status', 'detail', 'code']) {
    if (!(member in result.json)) throw new Error(`problem body lacks ${member}`);
  }
  return result.json;
}
