import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, dialects } from '../support/databases.js';
import { runGateway, type CliResult } from '../support/process.js';
import { gateway, useCliDatabase } from './cli.js';

interface Report {
  ok: boolean;
  checks: Array<{ name: string; ok: boolean; detail: string }>;
}

const CHECKS = ['config', 'database', 'secret_key', 'catalog', 'public_url', 'data_dir'];

function report(result: CliResult): Report {
  const parsed = JSON.parse(result.stdout) as Report;
  expect(parsed.checks.map((check) => check.name)).to.deep.equal(CHECKS);
  for (const check of parsed.checks) expect(Object.keys(check).sort()).to.deep.equal(['detail', 'name', 'ok']);
  return parsed;
}

/** The one failing check's detail, after asserting that it alone failed and the exit code says so. */
function failedAlone(result: CliResult, name: string): string {
  expect(result.code, result.stderr).to.equal(1);
  const { ok, checks } = report(result);
  expect(ok).to.equal(false);
  expect(checks.filter((check) => !check.ok).map((check) => check.name), result.stdout).to.deep.equal([name]);
  return checks.find((check) => check.name === name)!.detail;
}

function closedLoopbackPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

for (const dialect of dialects) {
  describe(`gateway doctor [${dialect}]`, function () {
    this.timeout(60000);
    const suite = useCliDatabase(dialect);
    const doctor = (env: NodeJS.ProcessEnv = {}, ...args: string[]) => gateway(['doctor', '--json', ...args], { ...suite.env(), ...env });
    const dataDir = () => suite.database().dataDir;

    it('passes every check on a migrated installation, one line each, and exits 0 (as a process of its own)', async () => {
      const text = await runGateway(['doctor'], suite.env());
      expect(text.code, text.stdout + text.stderr).to.equal(0);
      const lines = text.stdout.trim().split('\n');
      expect(lines).to.have.length(CHECKS.length);
      lines.forEach((line, i) => expect(line).to.match(new RegExp(`^ok\\s+${CHECKS[i]}\\s+\\S`)));

      const json = await doctor();
      expect(json.code).to.equal(0);
      const { ok, checks } = report(json);
      expect(ok).to.equal(true);
      expect(checks.every((check) => check.ok)).to.equal(true);
      expect(checks.find((check) => check.name === 'catalog')!.detail).to.match(/\d+ providers, \d+ tasks/);
    });

    it('fails the config check alone on a bad config value, naming the key, and judges the rest without it', async () => {
      expect(failedAlone(await doctor({ GATEWAY_WEBHOOKS__MAX_ATTEMPTS: 'many' }), 'config')).to.contain('webhooks.max_attempts');
    });

    it('fails the checks that rest on an invalid key: a public URL that is no URL fails config and public_url', async () => {
      const result = await doctor({ GATEWAY_PUBLIC_URL: 'not a url' });
      expect(result.code).to.equal(1);
      const { checks } = report(result);
      expect(checks.filter((check) => !check.ok).map((check) => check.name)).to.deep.equal(['config', 'public_url']);
      expect(checks[0].detail).to.contain('server.public_url');
      expect(checks.find((check) => check.name === 'public_url')!.detail).to.equal('not checked: server.public_url is invalid');
    });

    it('judges nothing else when the config file cannot be read', async () => {
      const result = await gateway(['--config', path.join(dataDir(), 'missing.yaml'), 'doctor', '--json'], suite.env());
      expect(result.code).to.equal(1);
      const { checks } = report(result);
      expect(checks[0]).to.include({ name: 'config', ok: false });
      expect(checks[0].detail).to.contain('cannot be read');
      for (const check of checks.slice(1)) expect(check).to.include({ ok: false, detail: 'not checked: the configuration cannot be read' });
    });

    it('fails the secret key check alone when secret.key is readable by others (0644)', async () => {
      const file = path.join(dataDir(), 'secret.key');
      chmodSync(file, 0o644);
      try {
        expect(failedAlone(await doctor(), 'secret_key')).to.contain(`chmod 600 ${file}`);
      } finally {
        chmodSync(file, 0o600);
      }
    });

    it('passes the secret key check with GATEWAY_SECRET_KEY set, whatever the file', async () => {
      const { checks } = report(await doctor({ GATEWAY_SECRET_KEY: 'doctor-test-secret-key-of-at-least-32-chars' }));
      expect(checks.find((check) => check.name === 'secret_key')).to.include({ ok: true });
    });

    it('fails the catalog check alone on an invalid catalog file', async () => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-doctor-')), 'broken.yaml');
      writeFileSync(file, 'providers:\n  - slug: Not A Slug\ntasks: 7\n');
      expect(failedAlone(await doctor({ GATEWAY_CATALOG: file }), 'catalog')).to.contain('gateway catalog validate');
    });

    it('fails the public URL check alone on a URL carrying credentials and a query, without echoing the password', async () => {
      const detail = failedAlone(await doctor({ GATEWAY_PUBLIC_URL: 'https://admin:hunter2-secret@gateway.example.com/?next=1' }), 'public_url');
      expect(detail).to.contain('carries credentials').and.contain('query string').and.not.contain('hunter2');
    });

    it('fails the data directory check alone when the directory is 0755', async () => {
      chmodSync(dataDir(), 0o755);
      try {
        expect(failedAlone(await doctor(), 'data_dir')).to.contain(`chmod 700 ${dataDir()}`);
      } finally {
        chmodSync(dataDir(), 0o700);
      }
    });

    it('fails, creating nothing, when the data directory does not exist', async () => {
      const missing = path.join(dataDir(), 'not-created');
      const url = dialect === 'sqlite' ? `sqlite:${path.join(missing, 'gateway.db')}` : suite.env().GATEWAY_DATABASE_URL;
      const result = await doctor({ GATEWAY_DATA_DIR: missing, GATEWAY_DATABASE_URL: url, GATEWAY_SECRET_KEY: 'doctor-test-secret-key-of-at-least-32-chars' });
      expect(result.code).to.equal(1);
      const failing = report(result).checks.filter((check) => !check.ok).map((check) => check.name);
      expect(failing).to.deep.equal(dialect === 'sqlite' ? ['database', 'data_dir'] : ['data_dir']);
      expect(existsSync(missing)).to.equal(false);
    });

    it('names the pending migrations of a fresh database and applies none of them', async () => {
      const fresh = await createTestDatabase(dialect);
      try {
        // A fresh SQLite database is an empty file; doctor never creates one (the check below would then fail instead).
        if (dialect === 'sqlite') closeSync(openSync(path.join(fresh.dataDir, 'gateway.db'), 'w', 0o600));
        const env = { GATEWAY_DATABASE_URL: fresh.url };
        const detail = failedAlone(await doctor(env), 'database');
        expect(detail).to.match(new RegExp(`^${migrations.length} pending migrations \\(2026\\.11\\.22T01\\.00\\.00\\.create-callers, .*\\): run gateway migrate$`));
        expect(failedAlone(await doctor(env), 'database'), 'a second look finds them still pending').to.equal(detail);
      } finally {
        await fresh.drop();
      }
    });

    if (dialect === 'sqlite') {
      it('fails the database check alone when the SQLite file is absent, and does not create it', async () => {
        const file = path.join(dataDir(), 'elsewhere.db');
        expect(failedAlone(await doctor({ GATEWAY_DATABASE_URL: `sqlite:${file}` }), 'database')).to.contain('run gateway migrate');
        expect(existsSync(file)).to.equal(false);
      });
    }

    if (dialect === 'postgres') {
      it('fails the database check alone when nothing listens on the Postgres port', async () => {
        const port = await closedLoopbackPort();
        const detail = failedAlone(await doctor({ GATEWAY_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/gateway` }), 'database');
        expect(detail).to.contain(`127.0.0.1:${port}`).and.contain('start PostgreSQL');
      });

      it('fails the database check alone when the Postgres database does not exist, saying how to create it', async () => {
        const name = `gw_missing_${randomBytes(4).toString('hex')}`;
        const detail = failedAlone(await doctor({ GATEWAY_DATABASE_URL: `postgres://postgres:pw-never-shown@127.0.0.1:5432/${name}` }), 'database');
        expect(detail).to.contain(`"${name}" does not exist`).and.contain(`createdb -h 127.0.0.1 -p 5432 ${name}`).and.not.contain('pw-never-shown');
      });
    }

    it('is a usage error (exit 2) with an unknown flag', async () => {
      const result = await gateway(['doctor', '--fix'], suite.env());
      expect(result.code).to.equal(2);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
    });
  });
}
