import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { createTestDatabase, dialects } from '../support/databases.js';
import { runGateway, startGateway, useGatewayDatabase } from '../support/process.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

/** The mode of every file in the data directory, and of the directory itself as '.'. */
function modes(dir: string): Record<string, string> {
  const found: Record<string, string> = { '.': modeOf(dir).toString(8) };
  for (const name of readdirSync(dir)) found[name] = modeOf(path.join(dir, name)).toString(8);
  return found;
}

function expectOneLine(result: { code: number | null; stdout: string; stderr: string }, code: number, pattern: RegExp) {
  expect(result.code, result.stderr).to.equal(code);
  expect(result.stderr.trim().split('\n'), result.stderr).to.have.length(1);
  expect(result.stderr).to.match(pattern);
}

for (const dialect of dialects) {
  describe(`gateway serve: what an operator meets [${dialect}]`, function () {
    this.timeout(180000);
    const { env, database } = useGatewayDatabase(dialect);

    it('keeps the data directory 0700 and the SQLite files, secret key and owner key 0600, from the first start and again at the next', async () => {
      const dir = database().dataDir;
      chmodSync(dir, 0o755);
      const first = await startGateway(env());
      const expected = (found: Record<string, string>) =>
        Object.fromEntries(Object.keys(found).map((name) => [name, name === '.' ? '700' : '600']));
      try {
        const found = modes(dir);
        expect(found['secret.key']).to.equal('600');
        expect(found['initial-owner-key']).to.equal('600');
        if (dialect === 'sqlite') expect(Object.keys(found)).to.include.members(['gateway.db', 'gateway.db-wal', 'gateway.db-shm']);
        expect(found).to.deep.equal(expected(found));
      } finally {
        // Killed outright, so SQLite leaves its -wal and -shm files behind, as after a crash.
        await first.stop('SIGKILL');
      }

      // An operator (or an older version) widened the directory and the database files: the next start narrows them again.
      chmodSync(dir, 0o755);
      for (const name of readdirSync(dir).filter((name) => name.startsWith('gateway.db'))) chmodSync(path.join(dir, name), 0o644);
      if (dialect === 'sqlite') expect(existsSync(path.join(dir, 'gateway.db-wal'))).to.equal(true);
      const second = await startGateway(env());
      try {
        const found = modes(dir);
        expect(found).to.deep.equal(expected(found));
      } finally {
        await second.stop();
      }
    });

    it('says a port in use is in use and to pick another with --port: one line, exit 1', async () => {
      const holder: Server = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const { port } = holder.address() as { port: number };
      try {
        const result = await runGateway(['serve', '--port', String(port)], { ...env(), GATEWAY_LOG__LEVEL: 'warn' });
        expectOneLine(result, 1, new RegExp(`^gateway: port ${port} on 127\\.0\\.0\\.1 is already in use; pick another with --port`));
        expect(result.stderr).to.not.match(/EADDRINUSE|Error/);
      } finally {
        holder.close();
      }
    });
  });
}

describe('gateway against a Postgres database that does not exist', function () {
  this.timeout(60000);

  it('names the database and how to create it: one line, exit 1', async () => {
    const { url, dataDir, drop } = await createTestDatabase('postgres');
    await drop();
    const name = new URL(url).pathname.slice(1);
    const env = { GATEWAY_DATABASE_URL: url, GATEWAY_DATA_DIR: dataDir };
    for (const args of [['serve', '--port', '0'], ['orgs', 'list']]) {
      const result = await runGateway(args, env);
      expectOneLine(result, 1, new RegExp(`^gateway: database "${name}" does not exist on the PostgreSQL server at 127\\.0\\.0\\.1:5432; create it with: createdb -h 127\\.0\\.0\\.1 -p 5432 -U postgres ${name}\n`));
      expect(result.stderr).to.not.include('3D000');
    }
  });
});

describe('gateway serve after database.url is switched to another database', function () {
  this.timeout(180000);

  it("never overwrites the first database's owner key file: the new key goes beside it, and the line printed says where", async () => {
    const sqlite = await createTestDatabase('sqlite');
    const postgres = await createTestDatabase('postgres');
    const dir = sqlite.dataDir;
    const keyFile = path.join(dir, 'initial-owner-key');
    try {
      const first = await startGateway({ GATEWAY_DATA_DIR: dir, GATEWAY_DATABASE_URL: sqlite.url });
      await first.stop();
      const firstKey = readFileSync(keyFile, 'utf8');
      expect(first.output()).to.include(`also written to ${keyFile}, mode 0600`);

      const second = await startGateway({ GATEWAY_DATA_DIR: dir, GATEWAY_DATABASE_URL: postgres.url });
      await second.stop();
      const beside = path.join(dir, `initial-owner-key.postgres-127.0.0.1-5432-${new URL(postgres.url).pathname.slice(1)}`);
      expect(readFileSync(keyFile, 'utf8')).to.equal(firstKey);
      const secondKey = readFileSync(beside, 'utf8').trim();
      expect(secondKey).to.match(/^gw_live_/).and.not.equal(firstKey.trim());
      expect(modeOf(beside)).to.equal(0o600);
      expect(second.output()).to.include(`(also written to ${beside}, mode 0600; ${keyFile} is another database's and was kept)`);
      expect(second.output()).to.include(`  ${secondKey}\n`);

      // A third database whose own name is taken too (its key file left from an earlier first run): the key is only printed.
      const third = await createTestDatabase('postgres');
      try {
        const taken = path.join(dir, `initial-owner-key.postgres-127.0.0.1-5432-${new URL(third.url).pathname.slice(1)}`);
        writeFileSync(taken, 'left by an earlier first run\n', { mode: 0o600 });
        const run = await startGateway({ GATEWAY_DATA_DIR: dir, GATEWAY_DATABASE_URL: third.url });
        await run.stop();
        expect(run.output()).to.include(`(not written to a file: ${keyFile} and ${taken} already exist and are never overwritten; save it now)`);
        expect(run.output()).to.match(/\n {2}gw_live_\S+\n/);
        expect(readFileSync(taken, 'utf8')).to.equal('left by an earlier first run\n');
        expect(readFileSync(keyFile, 'utf8')).to.equal(firstKey);
      } finally {
        await third.drop();
      }
    } finally {
      await postgres.drop();
    }
  });
});
