import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { expect } from 'chai';
import { openDatabase, type Database } from '../../src/db/database.js';
import { insertCall, settleCallWithCapture, type CallOutcome, type CallRow } from '../../src/db/repos/calls.js';
import { updateOrganization } from '../../src/db/repos/organizations.js';
import { newId } from '../../src/domain/ids.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { gatewayArgs, projectRoot, type CliResult } from '../support/process.js';
import { gateway } from './cli.js';

/** The first stderr line names the problem; nothing reaches stdout. */
function refused(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code, result.stderr).to.equal(code);
  expect(result.stdout).to.equal('');
  expect(result.stderr.split('\n')[0]).to.match(pattern);
}

async function waitFor(check: () => boolean, what: string, ms = 20000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `gateway calls tail` running with stdout on a pipe (not a TTY), its lines parsed as they arrive. */
interface Tail {
  child: ChildProcess;
  calls: Array<Record<string, unknown>>;
  stderr(): string;
  stop(): Promise<number | null>;
}

function startTail(args: string[], env: NodeJS.ProcessEnv): Tail {
  const child = spawn(process.execPath, gatewayArgs(['calls', 'tail', '--interval', '50', ...args]), {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const calls: Array<Record<string, unknown>> = [];
  let partial = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    for (const line of lines) calls.push(JSON.parse(line));
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    calls,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

for (const dialect of dialects) {
  describe(`gateway calls list and tail [${dialect}]`, function () {
    this.timeout(120000);
    let database: TestDatabase;
    let db: Database;
    let env: NodeJS.ProcessEnv;
    let organizationId: string;
    let clock = Date.now() - 3600_000;
    const gw = (...args: string[]) => gateway(args, env);

    /** A call as the run path writes it: a pending row, then (unless `pending`) its settlement. */
    async function recordCall(outcome: CallOutcome, extra: Partial<CallRow> = {}): Promise<string> {
      const at = (clock += 10);
      const row: CallRow = {
        id: newId('call', at),
        organization_id: organizationId,
        task_id: 'acme.weather.current',
        provider: 'acme',
        principal: 'user:ada',
        token_id: null,
        connection_id: null,
        identity: 'anonymous',
        outcome: 'pending',
        http_status: null,
        error_code: null,
        quoted_micros: 2000,
        charged_micros: 0,
        latency_ms: null,
        tag: null,
        approval_id: null,
        created_at: at,
        updated_at: at,
        ...extra,
      };
      await insertCall(db, row);
      if (outcome !== 'pending') await settle(row.id, outcome, row);
      return row.id;
    }

    function settle(id: string, outcome: CallOutcome, row: Pick<CallRow, 'task_id' | 'provider' | 'connection_id' | 'identity'> = { task_id: 'acme.weather.current', provider: 'acme', connection_id: null, identity: 'anonymous' }) {
      return settleCallWithCapture(db, id, {
        ...row,
        outcome,
        http_status: outcome === 'hit' ? 200 : outcome === 'miss' ? 404 : 502,
        error_code: outcome === 'hit' ? null : outcome === 'miss' ? 'miss' : 'upstream_error',
        quoted_micros: 2000,
        charged_micros: outcome === 'hit' ? 2000 : 0,
        latency_ms: 42,
        updated_at: Date.now(),
      }, null);
    }

    before(async () => {
      database = await createTestDatabase(dialect);
      env = { GATEWAY_DATA_DIR: database.dataDir, GATEWAY_DATABASE_URL: database.url };
      expect((await gw('migrate')).code).to.equal(0);
      expect((await gw('orgs', 'create', 'acme')).code).to.equal(0);
      db = await openDatabase(database.url);
      organizationId = (await db.select<{ id: string }>('SELECT id FROM organizations'))[0].id;
    });
    after(async () => {
      await db.close();
      await database.drop();
    });

    it('refuses bad filters and cursors with one clear line and exit 2', async () => {
      refused(await gw('calls', 'list', '--outcome', 'done'), 2, /--outcome.*'done' is invalid.*hit, miss, fault, pending/);
      refused(await gw('calls', 'tail', '--outcome', 'done'), 2, /--outcome/);
      refused(await gw('calls', 'list', '--principal', 'ada'), 2, /--principal.*must be "organization" or "user:<id>"/);
      refused(await gw('calls', 'list', '--task', 'x'.repeat(101)), 2, /--task.*less than or equal to 100 characters/);
      refused(await gw('calls', 'list', '--provider', 'x'.repeat(101)), 2, /--provider.*less than or equal to 100 characters/);
      refused(await gw('calls', 'list', '--token', 'x'.repeat(101)), 2, /--token/);
      refused(await gw('calls', 'list', '--connection', 'x'.repeat(101)), 2, /--connection/);
      refused(await gw('calls', 'tail', '--tag', 'x'.repeat(201)), 2, /--tag.*less than or equal to 200 characters/);
      refused(await gw('calls', 'tail', '--principal', 'user:'), 2, /--principal/);
      refused(await gw('calls', 'tail', '--interval', '5'), 2, /--interval.*20 to 60000/);
      refused(await gw('calls', 'list', '--cursor', 'not-a-cursor'), 2, /^gateway: cursor is not one this service returned$/);
    });

    it('takes filters at their limits, as GET /v1/calls does', async () => {
      for (const [option, value] of [['--task', 'x'.repeat(100)], ['--provider', 'x'.repeat(100)], ['--tag', 'x'.repeat(200)], ['--outcome', 'pending']]) {
        const listed = await gw('calls', 'list', option, value, '--json');
        expect(listed.code, listed.stderr).to.equal(0);
        expect(JSON.parse(listed.stdout)).to.deep.equal({ calls: [], next_cursor: null });
      }
    });

    it('lists calls newest first, 50 a page, as a table or one JSON document, with every filter', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 52; i++) ids.push(await recordCall(i % 2 ? 'hit' : 'fault'));
      const approval = 'apr_01jd8x7k2m3n4p5q6r7s8t9v0w';
      const tagged = await recordCall('miss', { tag: 'nightly', principal: 'user:bob', token_id: 'key_1', connection_id: 'conn_1', task_id: 'other.task', provider: 'other', approval_id: approval });
      const pending = await recordCall('pending');

      const first = await gw('calls', 'list', '--json');
      expect(first.code, first.stderr).to.equal(0);
      const page = JSON.parse(first.stdout);
      expect(page).to.have.all.keys('calls', 'next_cursor');
      expect(page.calls).to.have.length(50);
      expect(page.calls[0]).to.include({ id: pending, outcome: 'pending' });
      expect(page.calls[1]).to.include({ id: tagged, outcome: 'miss', tag: 'nightly', charged_usd: 0, quoted_usd: 0.002, approval_id: approval });
      const next = JSON.parse((await gw('calls', 'list', '--json', '--cursor', page.next_cursor)).stdout);
      expect(next.calls.map((call: { id: string }) => call.id)).to.deep.equal(ids.slice(0, 4).reverse());
      expect(next.next_cursor).to.equal(null);

      const only = async (...filter: string[]) => JSON.parse((await gw('calls', 'list', '--json', ...filter)).stdout).calls.map((call: { id: string }) => call.id);
      expect(await only('--tag', 'nightly')).to.deep.equal([tagged]);
      expect(await only('--principal', 'user:bob')).to.deep.equal([tagged]);
      expect(await only('--token', 'key_1')).to.deep.equal([tagged]);
      expect(await only('--connection', 'conn_1')).to.deep.equal([tagged]);
      expect(await only('--task', 'other.task')).to.deep.equal([tagged]);
      expect(await only('--provider', 'other')).to.deep.equal([tagged]);
      expect(await only('--outcome', 'pending')).to.deep.equal([pending]);
      expect(await only('--outcome', 'fault', '--principal', 'user:ada')).to.have.length(26);
      expect(await only('--outcome', 'hit', '--principal', 'user:bob')).to.deep.equal([]);

      const table = await gw('calls', 'list', '--outcome', 'miss');
      expect(table.code).to.equal(0);
      const lines = table.stdout.trim().split('\n');
      expect(lines[0].split(/\s+/)).to.deep.equal(['ID', 'CREATED_AT', 'TASK', 'PRINCIPAL', 'IDENTITY', 'OUTCOME', 'STATUS', 'ERROR', 'APPROVAL', 'CHARGED', 'LATENCY']);
      expect(lines[1].split(/\s+/)).to.deep.equal([tagged, new Date(clock - 10).toISOString(), 'other.task', 'user:bob', 'anonymous', 'miss', '404', 'miss', approval, '$0.00', '42', 'ms']);
      expect(lines).to.have.length(2);
      // A fault shows what the caller got, so a refused input and a failed upstream read apart.
      const faults = (await gw('calls', 'list', '--outcome', 'fault')).stdout.trim().split('\n');
      expect(faults[1].split(/\s+/).slice(5, 8)).to.deep.equal(['fault', '502', 'upstream_error']);
      const pendingRow = (await gw('calls', 'list', '--outcome', 'pending')).stdout.trim().split('\n')[1];
      expect(pendingRow.split(/\s+/).slice(5, 8)).to.deep.equal(['pending', '-', '-']);
      expect((await gw('calls', 'list')).stdout).to.match(/\n\nmore: gateway calls list --cursor \S+\n$/);
    });

    it('tails without a TTY as one JSON call per line: the latest ten, then each call once as it finishes', async () => {
      const latest = JSON.parse((await gw('calls', 'list', '--json')).stdout).calls.slice(0, 10).reverse();
      const tail = startTail([], env);
      try {
        // Of the latest ten, the one still pending is followed, not printed.
        await waitFor(() => tail.calls.length === 9, 'the latest ten calls but the pending one');
        expect(tail.calls).to.deep.equal(latest.filter((call: { outcome: string }) => call.outcome !== 'pending'));
        expect(tail.calls.at(-1)).to.have.all.keys(
          'id', 'task', 'provider', 'principal', 'token_id', 'connection_id', 'identity', 'outcome', 'http_status', 'error_code',
          'quoted_usd', 'charged_usd', 'latency_ms', 'tag', 'approval_id', 'created_at', 'updated_at',
        );

        clock = Date.now();
        const inFlight = await recordCall('pending', { principal: 'user:carol' });
        const quick = await recordCall('fault', { principal: 'user:carol' });
        await waitFor(() => tail.calls.length === 10, 'the call that finished');
        expect(tail.calls[9]).to.include({ id: quick, outcome: 'fault', principal: 'user:carol', charged_usd: 0 });

        await settle(inFlight, 'hit');
        await waitFor(() => tail.calls.length === 11, 'the pending call, once it finished');
        expect(tail.calls[10]).to.include({ id: inFlight, outcome: 'hit', charged_usd: 0.002, latency_ms: 42 });

        const burst: string[] = [];
        for (let i = 0; i < 300; i++) burst.push(await recordCall(i % 3 ? 'hit' : 'miss'));
        await waitFor(() => tail.calls.length === 311, 'a burst of 300 calls');
        expect(tail.calls.slice(11).map((call) => call.id)).to.deep.equal(burst);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(new Set(tail.calls.map((call) => call.id)).size).to.equal(311);
      } finally {
        expect(await tail.stop(), tail.stderr()).to.equal(0);
      }
      expect(tail.stderr()).to.equal('');
    });

    it('tails with --json and filters, following a pending call until it ends the way asked for', async () => {
      clock = Date.now();
      const marker = await recordCall('fault', { principal: 'user:dave' });
      const tail = startTail(['--json', '--outcome', 'fault', '--principal', 'user:dave'], env);
      const printed = () => tail.calls.map((call) => `${call.principal} ${call.outcome}`);
      try {
        await waitFor(() => tail.calls.length === 1, 'the latest fault of user:dave');
        expect(tail.calls[0].id).to.equal(marker);
        tail.calls.length = 0;
        const slow = await recordCall('pending', { principal: 'user:dave' });
        const other = await recordCall('pending', { principal: 'user:dave' });
        await recordCall('fault', { principal: 'user:erin' });
        await recordCall('hit', { principal: 'user:dave' });
        // Long enough for the tail to read past them: the pending ones are followed by id, not re-read.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        expect(tail.calls).to.deep.equal([]);
        await settle(other, 'hit');
        await settle(slow, 'fault');
        await waitFor(() => tail.calls.length === 1, 'the slow fault');
        expect(printed()).to.deep.equal(['user:dave fault']);
        expect(tail.calls[0].id).to.equal(slow);
      } finally {
        expect(await tail.stop(), tail.stderr()).to.equal(0);
      }
    });

    it('acts on the organization named by --org and never shows another organization\'s calls', async () => {
      expect((await gw('orgs', 'create', 'beta')).code).to.equal(0);
      // --org left out where it is needed is a missing argument: a usage error.
      refused(await gw('calls', 'list'), 2, /several organizations exist \(acme, beta\); name one with --org/);
      refused(await gw('calls', 'tail', '--json'), 2, /name one with --org/);
      expect(JSON.parse((await gw('calls', 'list', '--json', '--org', 'beta')).stdout)).to.deep.equal({ calls: [], next_cursor: null });
      expect(JSON.parse((await gw('calls', 'list', '--json', '--org', 'acme')).stdout).calls).to.have.length(50);
      const betaId = (await db.select<{ id: string }>("SELECT id FROM organizations WHERE name = 'beta'"))[0].id;
      const tail = startTail(['--org', 'beta'], env);
      try {
        const acmeCall = await recordCall('hit');
        const betaCall = await recordCall('hit', { organization_id: betaId });
        await waitFor(() => tail.calls.length === 1, "beta's call");
        await recordCall('hit');
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(tail.calls.map((call) => call.id)).to.deep.equal([betaCall]);
        expect(tail.calls.map((call) => call.id)).to.not.include(acmeCall);
      } finally {
        expect(await tail.stop(), tail.stderr()).to.equal(0);
      }
    });

    it('escapes the control characters of stored values in its table', async () => {
      const id = await recordCall('hit', { task_id: 'evil\u001b[2J.task', principal: 'user:x\u0007' });
      const table = await gw('calls', 'list', '--org', 'acme', '--task', 'evil\u001b[2J.task');
      expect(table.code, table.stderr).to.equal(0);
      expect(table.stdout).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(table.stdout.split('\n')[1]).to.match(new RegExp(`^${id}\\s+\\S+\\s+evil\\\\u001b\\[2J\\.task\\s+user:x\\\\u0007\\s`));
    });

    if (dialect === 'sqlite') {
      it('leaves no WAL behind when the server stops while a tail is still open', async () => {
        const tail = startTail(['--org', 'acme'], env);
        try {
          await waitFor(() => tail.calls.length > 0 || tail.stderr() !== '' || tail.child.exitCode !== null, 'the tail to read', 5000).catch(() => undefined);
          // A gateway's writes (a busy minute's worth of settled calls), then its shutdown, as `serve` closes its database.
          const server = await openDatabase(database.url);
          for (let i = 0; i < 200; i++) await updateOrganization(server, organizationId, { trusted_origins: [`https://app${i}.example.com`] });
          await server.close();
          const file = database.url.slice('sqlite:'.length);
          expect(statSync(`${file}-wal`).size, 'WAL bytes once the server has stopped').to.equal(0);
        } finally {
          expect(await tail.stop(), tail.stderr()).to.equal(0);
        }
      });
    }
  });
}
