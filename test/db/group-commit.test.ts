import { expect } from 'chai';
import { groupCommitter, type DirectStatements } from '../../src/db/direct.js';

/** A connection that records what it is asked and fails the statements a test names, as SQLite would. */
function fakeConnection(fail: (sql: string) => Error | null): DirectStatements & { log: string[] } {
  const log: string[] = [];
  const run = async (sql: string) => {
    log.push(sql);
    await new Promise((resolve) => setImmediate(resolve));
    const error = fail(sql);
    if (error) throw error;
    return 1;
  };
  return { log, run, all: async (sql) => [{ changed: await run(sql) }] as never };
}

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * One write alone, then a group of two (issued while the first commits) whose second write is `INSERT bad`;
 * resolves once both are settled, with the group's outcomes.
 */
async function groupWithBadWrite(writes: ReturnType<typeof groupCommitter>, connection: DirectStatements) {
  const first = writes.write(() => connection.run('INSERT first', []));
  const group = [writes.write(() => connection.run('INSERT a', [])), writes.write(() => connection.run('INSERT bad', []))];
  expect(await first).to.equal(1);
  return Promise.allSettled(group);
}

describe('group commit: what a failure inside a group does to the writes after it', () => {
  it('fails the whole group on a failure other than a constraint, and goes on with the next group', async () => {
    const connection = fakeConnection((sql) => (sql === 'INSERT bad' ? sqliteError('SQLITE_FULL', 'database or disk is full') : null));
    const writes = groupCommitter(connection);
    const outcomes = await groupWithBadWrite(writes, connection);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['rejected', 'rejected']);
    expect(connection.log).to.include('ROLLBACK').and.not.include('COMMIT');
    expect(await writes.write(() => connection.run('INSERT later', []))).to.equal(1);
  });

  it('refuses every later write once a rollback failed with the transaction still open, instead of losing them', async () => {
    const connection = fakeConnection((sql) => {
      if (sql === 'INSERT bad') return sqliteError('SQLITE_IOERR', 'disk I/O error');
      if (sql === 'ROLLBACK') return sqliteError('SQLITE_IOERR', 'disk I/O error');
      return null;
    });
    const writes = groupCommitter(connection);
    await groupWithBadWrite(writes, connection);
    const later = await writes.write(() => connection.run('INSERT later', [])).catch((error: Error) => error);
    expect((later as Error).message).to.match(/unusable after a failed rollback \(disk I\/O error\); restart the gateway/);
    expect(connection.log).to.not.include('INSERT later');
  });

  it('goes on when the rollback only finds the transaction already ended', async () => {
    const connection = fakeConnection((sql) => {
      if (sql === 'INSERT bad') return sqliteError('SQLITE_IOERR', 'disk I/O error');
      if (sql === 'ROLLBACK') return sqliteError('SQLITE_ERROR', 'cannot rollback - no transaction is active');
      return null;
    });
    const writes = groupCommitter(connection);
    await groupWithBadWrite(writes, connection);
    expect(await writes.write(() => connection.run('INSERT later', []))).to.equal(1);
  });
});
