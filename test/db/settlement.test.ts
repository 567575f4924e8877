import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrator.js';
import { findCall, insertCall, insertCapture, settleCallWithCapture, startCountedCall, type CallRow, type CaptureRow } from '../../src/db/repos/calls.js';
import { findConnection, insertConnection } from '../../src/db/repos/connections.js';
import { insertOrganization } from '../../src/db/repos/organizations.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';

const ORG = 'org_settlement';

function pendingCall(id: string, now: number, principal = 'organization'): CallRow {
  return {
    id, organization_id: ORG, task_id: 't.x', provider: 'p', principal, token_id: null, connection_id: null,
    identity: 'anonymous', outcome: 'pending', http_status: null, error_code: null, quoted_micros: 0, charged_micros: 0,
    latency_ms: null, tag: null, approval_id: null, created_at: now, updated_at: now,
  };
}

function captureOf(callId: string, now: number): CaptureRow {
  return { call_id: callId, organization_id: ORG, input: '{}', output: '{"ok":true}', input_bytes: 2, output_bytes: 11, truncated: '[]', created_at: now };
}

const settlement = (now: number) => ({
  task_id: 't.x', provider: 'p', connection_id: null, identity: 'anonymous', outcome: 'hit' as const, http_status: 200,
  error_code: null, quoted_micros: 0, charged_micros: 0, latency_ms: 5, updated_at: now,
});

/**
 * A call's start (its pending row written with its run's rate-limit count and its principal's use, in one wait) and
 * its settlement and capture, which commit together or not at all beside other writes of the same moment.
 */
for (const dialect of dialects) {
  describe(`a call's start, settlement and capture [${dialect}]`, function () {
    this.timeout(60000);
    let database: TestDatabase;
    let db: Database;

    before(async () => {
      database = await createTestDatabase(dialect);
      db = await openDatabase(database.url);
      await migrate(db);
      const now = Date.now();
      await insertOrganization(db, {
        id: ORG, name: 'settlement', display_name: 'Settlement', status: 'active', trusted_origins: [], redirect_uris: [], approval_policy: '{}', created_at: now, updated_at: now,
      });
    });
    after(async () => {
      await db.close();
      await database.drop();
    });

    it('leaves the call pending when its capture cannot be stored, while the writes beside it commit', async () => {
      const now = Date.now();
      await insertCall(db, pendingCall('call_a', now));
      await insertCall(db, pendingCall('call_b', now));
      // A capture already stored under call_a's id: storing call_a's capture again is refused by the database.
      await insertCapture(db, captureOf('call_a', now));
      const [refused, beside] = await Promise.allSettled([
        settleCallWithCapture(db, 'call_a', settlement(now), captureOf('call_a', now)),
        settleCallWithCapture(db, 'call_b', settlement(now), captureOf('call_b', now)),
      ]);
      expect(refused.status).to.equal('rejected');
      expect(beside.status).to.equal('fulfilled');
      expect((await findCall(db, ORG, 'call_a'))!.outcome).to.equal('pending');
      expect((await findCall(db, ORG, 'call_b'))!.outcome).to.equal('hit');
    });

    it('undoes only the refused unit of a group commit: the units and statements written with it commit', async () => {
      const now = Date.now();
      for (const id of ['call_c', 'call_d', 'call_e']) await insertCall(db, pendingCall(id, now));
      await insertCapture(db, captureOf('call_d', now));
      // call_c's settlement commits first; the writes issued meanwhile (call_d's refused unit among them) make one group.
      const [first, refused, beside, alone] = await Promise.allSettled([
        settleCallWithCapture(db, 'call_c', settlement(now), captureOf('call_c', now)),
        settleCallWithCapture(db, 'call_d', settlement(now), captureOf('call_d', now)),
        settleCallWithCapture(db, 'call_e', settlement(now), captureOf('call_e', now)),
        insertCall(db, pendingCall('call_g', now)),
      ]);
      expect([first.status, refused.status, beside.status, alone.status]).to.deep.equal(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect((await findCall(db, ORG, 'call_d'))!.outcome).to.equal('pending');
      expect((await findCall(db, ORG, 'call_e'))!.outcome).to.equal('hit');
      expect(await findCall(db, ORG, 'call_g')).to.not.equal(null);
    });

    const principals = () => db.select<{ principal: string }>('SELECT principal FROM principals WHERE organization_id = $1 ORDER BY principal', [ORG]);

    it('counts every start, and writes the call and the principal only within every allowance', async () => {
      const now = Date.now();
      const counting = { buckets: ['run:org:a:1', 'run:principal:a:1'], windowStart: now, limits: [5, 2] };
      const totals = [];
      for (const [i, principal] of ['user:ann', 'user:ann', 'user:bob'].entries()) {
        totals.push(await startCountedCall(db, pendingCall(`call_${i}`, now, principal), counting, true));
      }
      expect(totals).to.deep.equal([[1, 1], [2, 2], [3, 3]]);
      expect((await findCall(db, ORG, 'call_0'))!.outcome).to.equal('pending');
      expect(await findCall(db, ORG, 'call_1')).to.not.equal(null);
      // Past the second allowance: counted, but neither the call nor its principal is written.
      expect(await findCall(db, ORG, 'call_2')).to.equal(null);
      expect((await principals()).map((row) => row.principal)).to.deep.equal(['user:ann']);
    });

    it('admits exactly the allowance of concurrent starts, each counted once', async () => {
      const now = Date.now();
      const counting = { buckets: ['run:org:b:1', 'run:cred:b:1'], windowStart: now, limits: [100, 7] };
      const started = await Promise.all(Array.from({ length: 20 }, (_, i) => startCountedCall(db, pendingCall(`call_start${i}`, now), counting, false)));
      expect(started.map(([, cred]) => cred).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
      const [{ n }] = await db.select<{ n: unknown }>(`SELECT COUNT(*) AS n FROM calls WHERE id LIKE 'call_start%'`);
      expect(Number(n)).to.equal(7);
    });

    it('leaves a lone call pending when its capture cannot be stored', async () => {
      const now = Date.now();
      await insertCall(db, pendingCall('call_lone', now));
      await insertCapture(db, captureOf('call_lone', now));
      const settled = settleCallWithCapture(db, 'call_lone', settlement(now), captureOf('call_lone', now));
      await settled.then(() => expect.fail('a second capture of one call was stored'), () => undefined);
      expect((await findCall(db, ORG, 'call_lone'))!.outcome).to.equal('pending');
    });

    const connection = async (id: string, now: number) => {
      await db.transaction((tx) => insertConnection(tx, {
        id, organization_id: ORG, provider: 'p', principal: 'organization', account_id: null, label: null, status: 'active', scopes: [],
        is_default: true, credential: 'sealed', credential_expires_at: null, created_at: now, updated_at: now, last_used_at: null,
      }));
    };
    const onConnection = (id: string, now: number) => ({ ...settlement(now), connection_id: id, identity: `connection:${id}` });
    const lastUsed = async (id: string) => (await findConnection(db, ORG, id))!.last_used_at;

    it("writes a connection's last use with the settlement of its hit, with or without a capture", async () => {
      const now = Date.now();
      await connection('conn_used', now - 1000);
      await insertCall(db, pendingCall('call_used', now));
      await settleCallWithCapture(db, 'call_used', onConnection('conn_used', now), captureOf('call_used', now), true);
      expect(Number(await lastUsed('conn_used'))).to.equal(now);
      await insertCall(db, pendingCall('call_used_zero', now + 5));
      await settleCallWithCapture(db, 'call_used_zero', onConnection('conn_used', now + 5), null, true);
      expect(Number(await lastUsed('conn_used'))).to.equal(now + 5);
      const [{ n }] = await db.select<{ n: unknown }>(`SELECT COUNT(*) AS n FROM captures WHERE call_id = 'call_used_zero'`);
      expect(Number(n)).to.equal(0);
      expect((await findCall(db, ORG, 'call_used_zero'))!.outcome).to.equal('hit');
    });

    it("leaves a connection's last use untouched when the settlement is refused, or not asked to write it", async () => {
      const now = Date.now();
      await connection('conn_refused', now - 1000);
      await insertCall(db, pendingCall('call_refused', now));
      await insertCapture(db, captureOf('call_refused', now));
      await settleCallWithCapture(db, 'call_refused', onConnection('conn_refused', now), captureOf('call_refused', now), true)
        .then(() => expect.fail('a second capture of one call was stored'), () => undefined);
      expect(await lastUsed('conn_refused')).to.equal(null);
      await insertCall(db, pendingCall('call_fault', now));
      await settleCallWithCapture(db, 'call_fault', { ...onConnection('conn_refused', now), outcome: 'fault' }, captureOf('call_fault', now));
      expect(await lastUsed('conn_refused')).to.equal(null);
    });

    if (dialect === 'sqlite') {
      it('settles a call with its capture in one SQLite statement: one driver call, no BEGIN or COMMIT', async () => {
        const now = Date.now();
        await insertCall(db, pendingCall('call_one_statement', now));
        const statement = sqlite3.Statement.prototype;
        const calls: string[] = [];
        const [all, run] = [statement.all, statement.run];
        statement.all = function (this: sqlite3.Statement, ...args: unknown[]) {
          calls.push('all');
          return (all as (...a: unknown[]) => sqlite3.Statement).apply(this, args);
        } as typeof all;
        statement.run = function (this: sqlite3.Statement, ...args: unknown[]) {
          calls.push('run');
          return (run as (...a: unknown[]) => sqlite3.Statement).apply(this, args);
        } as typeof run;
        try {
          await settleCallWithCapture(db, 'call_one_statement', settlement(now), captureOf('call_one_statement', now));
        } finally {
          Object.assign(statement, { all, run });
        }
        expect(calls).to.have.length(1);
        expect((await findCall(db, ORG, 'call_one_statement'))!.outcome).to.equal('hit');
        const [{ n }] = await db.select<{ n: unknown }>(`SELECT COUNT(*) AS n FROM captures WHERE call_id = 'call_one_statement'`);
        expect(Number(n)).to.equal(1);
      });
    }
  });
}
