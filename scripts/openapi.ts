/**
 * Writes the client's types generated from the API document (src/client/schema.ts) and, given a path,
 * the document itself: `npm run build` runs it with dist/openapi.json before compiling, so the client
 * always matches the routes. The types are committed so a fresh checkout typechecks, and a test fails
 * when they drift. Without a path nothing is written to dist/, which tests take for a fresh build by its times.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { loadConfig } from '../src/config/load.js';
import { openGateway } from '../src/app/gateway.js';
import { apiDocument } from '../src/http/openapi.js';
import { createServer } from '../src/http/server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_TYPES_FILE = path.join(root, 'src', 'client', 'schema.ts');

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

async function main(documentFile: string | undefined): Promise<void> {
  const document = await buildDocument();
  // Rewritten only when the types changed: an untouched file lets `tsc -b` see the build is up to date.
  const types = await clientTypes(document);
  if (!existsSync(CLIENT_TYPES_FILE) || readFileSync(CLIENT_TYPES_FILE, 'utf8') !== types) {
    writeFileSync(CLIENT_TYPES_FILE, types);
    console.log(`wrote ${path.relative(root, CLIENT_TYPES_FILE)}`);
  }
  if (documentFile) {
    mkdirSync(path.dirname(path.resolve(documentFile)), { recursive: true });
    writeFileSync(documentFile, `${JSON.stringify(document, null, 2)}\n`);
    console.log(`wrote ${documentFile}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv[2]);
