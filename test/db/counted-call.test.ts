import { expect } from 'chai';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrator.js';
import { insertOrganization } from '../../src/db/repos/organizations.js';
import { findCall, insertCall, insertCapture, settleCallWithCapture, startCountedCall, type CallRow } from '../../src/db/repos/calls.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';

const ORG = 'org_counted';

function pendingCall(id: string, principal: string, now: number): CallRow {
  return {
    id, organization_id: ORG, task_id: 't.x', provider: 'p', principal, token_id: null, connection_id: null,
    identity: 'anonymous', outcome: 'pending', http_status: null, error_code: null, quoted_micros: 0, charged_micros: 0,
    latency_ms: null, tag: null, approval_id: null, created_at: now, updated_at: now,
  };
}

/** A run's pending call written with its rate-limit count (and its principal's use) in one wait. */
for (const dialect of dialects) {
  describe(`a pending call started with its count [${dialect}]`, function () {
    this.timeout(60000);
    let database: TestDatabase;
    let db: Database;

    before(async () => {
      database = await createTestDatabase(dialect);
      db = await openDatabase(database.url);
      await migrate(db);
      const now = Date.now();
      await insertOrganization(db, {
        id: ORG, name: 'counted', display_name: 'Counted', status: 'active', trusted_origins: [], redirect_uris: [], approval_policy: '{}', created_at: now, updated_at: now,
      });
    });
    after(async () => {
      await db.close();
      await database.drop();
    });

    const principals = () => db.select<{ principal: string }>('SELECT principal FROM principals WHERE organization_id = $1 ORDER BY principal', [ORG]);

    it('counts every start, and writes the call and the principal only within every allowance', async () => {
      const now = Date.now();
      const counting = { buckets: ['run:org:a:1', 'run:principal:a:1'], windowStart: now, limits: [5, 2] };
      const totals = [];
      for (const [i, principal] of ['user:ann', 'user:ann', 'user:bob'].entries()) {
        totals.push(await startCountedCall(db, pendingCall(`call_${i}`, principal, now), counting, true));
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
      const started = await Promise.all(Array.from({ length: 20 }, (_, i) => startCountedCall(db, pendingCall(`call_c${i}`, 'organization', now), counting, false)));
      expect(started.map(([, cred]) => cred).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
      const [{ n }] = await db.select<{ n: unknown }>(`SELECT COUNT(*) AS n FROM calls WHERE id LIKE 'call_c%'`);
      expect(Number(n)).to.equal(7);
    });

    it('leaves a lone call pending when its capture cannot be stored', async () => {
      const now = Date.now();
      await insertCall(db, pendingCall('call_lone', 'organization', now));
      const capture = { call_id: 'call_lone', organization_id: ORG, input: '{}', output: '{}', input_bytes: 2, output_bytes: 2, truncated: '[]', created_at: now };
      await insertCapture(db, capture);
      const settled = settleCallWithCapture(db, 'call_lone', {
        task_id: 't.x', provider: 'p', connection_id: null, identity: 'anonymous', outcome: 'hit', http_status: 200,
        error_code: null, quoted_micros: 0, charged_micros: 0, latency_ms: 5, updated_at: now,
      }, capture);
      await settled.then(() => expect.fail('a second capture of one call was stored'), () => undefined);
      expect((await findCall(db, ORG, 'call_lone'))!.outcome).to.equal('pending');
    });
  });
}
