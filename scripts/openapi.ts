/**
 * Writes the API document (dist/openapi.json) and the client's types generated from it
 * (src/client/schema.ts). `npm run build` runs it before compiling, so the client always matches the
 * routes; the types are committed so a fresh checkout typechecks, and a test fails when they drift.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { loadConfig } from '../src/config/load.js';
import { openGateway } from '../src/domain/gateway.js';
import { apiDocument } from '../src/http/openapi.js';
import { createServer } from '../src/http/server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_TYPES_FILE = path.join(root, 'src', 'client', 'schema.ts');
const DOCUMENT_FILE = path.join(root, 'dist', 'openapi.json');

/** The document of a server with the default configuration, built in a throwaway data directory. */
export async function buildDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-openapi-'));
  try {
    const config = loadConfig({ env: {}, overrides: { data_dir: dataDir, secret_key: 'x'.repeat(32), log: { level: 'silent' } } });
    const gateway = await openGateway(config);
    try {
      return apiDocument(await createServer(gateway), config.server.public_url);
    } finally {
      await gateway.db.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The TypeScript text openapi-typescript makes of the document: `paths` and `components` for openapi-fetch. */
export async function clientTypes(document: Record<string, unknown>): Promise<string> {
  return COMMENT_HEADER + astToString(await openapiTS(document as never));
}

async function main(): Promise<void> {
  const document = await buildDocument();
  mkdirSync(path.dirname(DOCUMENT_FILE), { recursive: true });
  writeFileSync(DOCUMENT_FILE, `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(CLIENT_TYPES_FILE, await clientTypes(document));
  console.log(`wrote ${path.relative(root, DOCUMENT_FILE)} and ${path.relative(root, CLIENT_TYPES_FILE)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
