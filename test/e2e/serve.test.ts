import { expect } from 'chai';
import { readFileSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { startFakeProvider } from '../support/fake-provider.js';
import { freePort, gatewayArgs, initialOwnerKey, projectRoot, runGateway, startGateway, type RunningGateway } from '../support/process.js';

for (const dialect of dialects) {
  describe(`gateway serve as a real process [${dialect}]`, function () {
    this.timeout(90000);
    let database: TestDatabase;
    let env: NodeJS.ProcessEnv;
    let gateway: RunningGateway | undefined;

    before(async () => {
      database = await createTestDatabase(dialect);
      env = { GATEWAY_DATA_DIR: database.dataDir, GATEWAY_DATABASE_URL: database.url };
    });
    afterEach(async () => {
      await gateway?.stop();
      gateway = undefined;
    });
    after(async () => database.drop());

    it('creates the default organization and prints its owner key once, keeping it in data/initial-owner-key (0600)', async () => {
      gateway = await startGateway(env, [], { binary: true });
      const printed = /(gw_live_[A-Za-z0-9_-]+)/.exec(gateway.output())?.[1];
      expect(printed, gateway.output()).to.be.a('string');
      const file = path.join(database.dataDir, 'initial-owner-key');
      expect(readFileSync(file, 'utf8').trim()).to.equal(printed);
      expect(statSync(file).mode & 0o777).to.equal(0o600);

      const me = await fetch(`${gateway.url}/v1/me`, { headers: { authorization: `Bearer ${printed}` } });
      expect(me.status).to.equal(200);
      const caller = (await me.json()) as { organization: { name: string }; key: { role: string } };
      expect(caller.organization.name).to.equal('default');
      expect(caller.key.role).to.equal('owner');

      const health = await fetch(`${gateway.url}/health`);
      expect(health.status).to.equal(204);
    });

    it('does not print a key again on a second start, and exits 0 on SIGTERM', async () => {
      gateway = await startGateway(env);
      expect(gateway.output()).to.not.match(/gw_live_/);
      const code = await gateway.stop('SIGTERM');
      gateway = undefined;
      expect(code).to.equal(0);
    });

    it('finishes a run in flight before stopping on SIGTERM, and records it as a hit', async () => {
      const upstream = await startFakeProvider();
      upstream.on('GET', '/weather/Paris', { json: { temp: 21 }, delayMs: 700 });
      const runEnv = {
        ...env,
        GATEWAY_CATALOG: path.join(projectRoot, 'test', 'fixtures', 'run-catalog.yaml'),
        GATEWAY_PROVIDERS__RT_OPEN__BASE_URL: upstream.url,
      };
      try {
        gateway = await startGateway(runEnv);
        const key = readFileSync(path.join(database.dataDir, 'initial-owner-key'), 'utf8').trim();
        const inflight = fetch(`${gateway.url}/v1/tasks/rt-open.weather.now/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ city: 'Paris' }),
        });
        while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        const stopped = gateway.stop('SIGTERM');
        const answer = await inflight;
        expect(answer.status).to.equal(200);
        const run = (await answer.json()) as { output: unknown; receipt: { call_id: string } };
        expect(run.output).to.deep.equal({ temp: 21 });
        expect(await stopped).to.equal(0);
        gateway = undefined;
        const listed = await runGateway(['calls', 'list', '--json'], env);
        expect(listed.code, listed.stderr).to.equal(0);
        const call = (JSON.parse(listed.stdout) as { calls: Array<{ id: string; outcome: string }> }).calls.find((c) => c.id === run.receipt.call_id);
        expect(call?.outcome).to.equal('hit');
      } finally {
        await upstream.close();
      }
    });

    it('answers /health from its first answer with the catalog version, and holds other requests until the routes are in', async () => {
      const port = await freePort();
      const child = spawn(process.execPath, gatewayArgs(['serve', '--port', String(port)]), {
        env: { ...process.env, GATEWAY_LOG__LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        let health: Response | undefined;
        while (!health && child.exitCode === null) {
          health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
          if (!health) await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(health?.status, output).to.equal(204);
        const version = health!.headers.get('svc-catalog-version');
        expect(version, 'the first /health answer names the catalog version').to.match(/^[0-9a-f]{12}$/);
        const task = await fetch(`http://127.0.0.1:${port}/v1/tasks/open-meteo.weather.current`, { headers: { authorization: `Bearer ${initialOwnerKey(database)}` } });
        expect(task.status).to.equal(200);
        expect(task.headers.get('svc-catalog-version')).to.equal(version);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    });

    it('answers problem+json for malformed HTTP that never reaches a route', async () => {
      gateway = await startGateway(env);
      const url = new URL(gateway.url);
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.end('GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n'));
        let data = '';
        socket.on('data', (chunk) => (data += chunk));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      const [head, body] = raw.split('\r\n\r\n');
      const answer = { status: Number(head.split(' ')[1]), type: /content-type: (\S+)/i.exec(head)?.[1], body };
      expect(answer.status).to.equal(400);
      expect(answer.type).to.equal('application/problem+json');
      expect(JSON.parse(answer.body).code).to.equal('invalid_input');
    });

    it('stops with one line naming the key and exit code 2 on a bad config value', async () => {
      const result = await runGateway(['serve'], { ...env, GATEWAY_PORT: 'eighty' });
      expect(result.code).to.equal(2);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
      expect(result.stderr).to.match(/server\.port/);
      expect(result.stderr).to.not.match(/\bat \S+ \(/);
    });

    it('reports migrations with migrate --status', async () => {
      const result = await runGateway(['migrate', '--status', '--json'], env);
      expect(result.code, result.stderr).to.equal(0);
      const status = JSON.parse(result.stdout);
      expect(status.pending).to.deep.equal([]);
      expect(status.executed.length).to.be.greaterThan(0);
    });
  });
}

describe('gateway serve against an unreachable database', function () {
  this.timeout(30000);
  it('exits non-zero with one clear line', async () => {
    const result = await runGateway(['serve', '--port', '0'], { GATEWAY_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(result.code).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.match(/database unreachable/);
  });
});
