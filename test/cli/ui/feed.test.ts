import { expect } from 'chai';
import { CallFeed } from '../../../src/cli/ui/feed.js';
import { CallTable, makeCall } from './table.js';

const ids = (calls: Array<{ id: string }>) => calls.map((call) => call.id);

describe('CallFeed: what a tail prints and shows live', () => {
  let clock: number;
  let table: CallTable;
  const feed = (options = {}) => new CallFeed(table, { now: () => clock, lagMs: 1000, ...options });

  beforeEach(() => {
    clock = 1_000_000;
    table = new CallTable();
  });

  it('starts with the latest calls as a backlog, oldest first, and then prints only new ones', async () => {
    table.insert(...Array.from({ length: 15 }, (_, i) => makeCall(i + 1, 'hit')));
    const tail = feed({ backlog: 3 });
    expect(ids((await tail.next()).settled)).to.deep.equal(['call_000013', 'call_000014', 'call_000015']);
    expect((await tail.next()).settled).to.deep.equal([]);
    table.insert(makeCall(16, 'miss'), makeCall(17, 'fault'));
    const update = await tail.next();
    expect(ids(update.settled)).to.deep.equal(['call_000016', 'call_000017']);
    expect(update.settled.map((call) => call.outcome)).to.deep.equal(['miss', 'fault']);
  });

  it('shows a pending call live, then prints it once when it finishes', async () => {
    const tail = feed();
    await tail.next();
    table.insert(makeCall(1, 'pending'), makeCall(2, 'hit'));
    const first = await tail.next();
    expect(ids(first.settled)).to.deep.equal(['call_000002']);
    expect(ids(first.live)).to.deep.equal(['call_000001']);
    expect((await tail.next()).live).to.have.length(1);
    table.settle('call_000001', 'hit');
    const done = await tail.next();
    expect(done.live).to.deep.equal([]);
    expect(done.settled).to.have.length(1);
    expect(done.settled[0]).to.include({ id: 'call_000001', outcome: 'hit', latency_ms: 25 });
    expect(await tail.next()).to.deep.equal({ settled: [], live: [] });
  });

  it('prints a call committed late with an id below ones already printed, exactly once', async () => {
    const tail = feed();
    await tail.next();
    table.insert(makeCall(10, 'hit'));
    expect(ids((await tail.next()).settled)).to.deep.equal(['call_000010']);
    clock += 500;
    table.insert(makeCall(9, 'hit'));
    expect(ids((await tail.next()).settled)).to.deep.equal(['call_000009']);
    clock += 2000;
    expect((await tail.next()).settled).to.deep.equal([]);
  });

  it('remembers ids only for the lag window, so memory and re-reads stay flat on a long tail', async () => {
    const tail = feed();
    await tail.next();
    let n = 0;
    for (let poll = 0; poll < 40; poll++) {
      table.insert(...Array.from({ length: 100 }, () => makeCall(++n, 'hit')));
      expect((await tail.next()).settled).to.have.length(100);
      clock += 250;
    }
    // 1 s of lag at 4 polls a second: each poll re-reads at most the last ~5 polls' calls.
    table.reads.rowsReturned = 0;
    await tail.next();
    expect(table.reads.rowsReturned).to.be.at.most(500);
    expect((tail as unknown as { seen: Set<string> }).seen.size).to.be.at.most(500);
  });

  it('filtered on an outcome, follows in-flight calls unseen and prints those that end that way', async () => {
    const tail = feed({ outcome: 'fault' });
    await tail.next();
    table.insert(makeCall(1, 'pending'), makeCall(2, 'pending'), makeCall(3, 'fault'), makeCall(4, 'hit'));
    const first = await tail.next();
    expect(ids(first.settled)).to.deep.equal(['call_000003']);
    expect(first.live).to.deep.equal([]);
    clock += 5000;
    table.settle('call_000001', 'fault');
    table.settle('call_000002', 'hit');
    expect(ids((await tail.next()).settled)).to.deep.equal(['call_000001']);
  });

  it('filtered on pending, prints calls seen in flight as they start and nothing else', async () => {
    const tail = feed({ outcome: 'pending' });
    await tail.next();
    table.insert(makeCall(1, 'pending'), makeCall(2, 'hit'));
    const update = await tail.next();
    expect(ids(update.settled)).to.deep.equal(['call_000001']);
    expect(update.live).to.deep.equal([]);
    table.settle('call_000001', 'hit');
    expect((await tail.next()).settled).to.deep.equal([]);
    expect(table.reads.current).to.equal(0);
  });

  it('follows at most maxLive in-flight calls and prints the oldest beyond that as they stand', async () => {
    const tail = feed({ maxLive: 2 });
    await tail.next();
    table.insert(makeCall(1, 'pending'), makeCall(2, 'pending'), makeCall(3, 'pending'));
    const update = await tail.next();
    expect(ids(update.settled)).to.deep.equal(['call_000001']);
    expect(update.settled[0].outcome).to.equal('pending');
    expect(ids(update.live)).to.deep.equal(['call_000002', 'call_000003']);
  });

  it('stops following a call that disappeared from the source', async () => {
    const tail = feed();
    await tail.next();
    table.insert(makeCall(1, 'pending'));
    expect((await tail.next()).live).to.have.length(1);
    table.rows.delete('call_000001');
    expect((await tail.next()).live).to.deep.equal([]);
    expect((await tail.next()).live).to.deep.equal([]);
    expect(table.reads.current).to.equal(1);
  });
});
