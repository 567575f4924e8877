import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gateway, refused } from './cli.js';

describe('gateway configuration errors', function () {
  this.timeout(60000);
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'gw-config-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const env = (extra: NodeJS.ProcessEnv) => ({ GATEWAY_DATA_DIR: dir, GATEWAY_DATABASE_URL: `sqlite:${path.join(dir, 'g.db')}`, ...extra });

  it('names the key once, unquoted, and the environment variable its refused value came from (exit 2)', async () => {
    refused(await gateway(['orgs', 'list'], env({ GATEWAY_DATABASE_URL: 'mysql://x' })), 2, /^gateway: invalid config: database\.url \(set by GATEWAY_DATABASE_URL\): must start with sqlite: or postgres:\/\/$/);
    refused(await gateway(['keys', 'list'], env({ GATEWAY_PORT: 'abc' })), 2, /^gateway: invalid config: server\.port \(set by GATEWAY_PORT\): must be a number$/);
    refused(await gateway(['orgs', 'list'], env({ GATEWAY_WEBHOOKS__MAX_ATTEMPTS: 'many' })), 2, /^gateway: invalid config: webhooks\.max_attempts \(set by GATEWAY_WEBHOOKS__MAX_ATTEMPTS\): must be a number$/);
  });

  it('names no variable when the refused value came from a flag given over it', async () => {
    refused(await gateway(['serve', '--port', 'abc'], env({ GATEWAY_PORT: '8080' })), 2, /^gateway: invalid config: server\.port: must be a number$/);
  });
});

describe('gateway mcp url --tasks with a task the catalog lacks', function () {
  this.timeout(60000);

  it('says which catalog files it looked in, and how to see the ones serve loads', async () => {
    refused(await gateway(['mcp', 'url', '--tasks', 'acme.weather.current'], { GATEWAY_CATALOG: '' }), 2, /no task acme\.weather\.current \(looked up in the built-in catalog only: no catalog\.files are configured; give serve's --config or GATEWAY_CATALOG to see its tasks\)/);
    const fixture = path.resolve('test/fixtures/catalog/extra.yaml');
    refused(await gateway(['mcp', 'url', '--tasks', 'acme.nothing'], { GATEWAY_CATALOG: fixture }), 2, new RegExp(`no task acme\\.nothing \\(looked up in the built-in catalog and catalog\\.files ${fixture.replace(/[.]/g, '\\.')}\\)`));
  });
});
