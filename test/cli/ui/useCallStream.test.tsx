import { expect } from 'chai';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { TailApp } from '../../../src/cli/ui/TailApp.js';
import type { CallSource } from '../../../src/cli/ui/feed.js';
import type { TailCall } from '../../../src/cli/ui/types.js';
import { useCallStream } from '../../../src/cli/ui/useCallStream.js';
import { CallTable, makeCall } from './table.js';

const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

async function waitFor(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Shows what the hook holds, so a test can read its state from the frame. */
function Probe({ source }: { source: CallSource<TailCall> }) {
  const stream = useCallStream(source, { intervalMs: 10 });
  const batch = stream.batch.calls.map((call) => `${call.id}=${call.outcome}`).join(',');
  return (
    <Text>
      serial={stream.batch.serial} batch=[{batch}] live={stream.live.length} printed={stream.printed} error={stream.error?.message ?? '-'}
    </Text>
  );
}

describe('useCallStream and the live tail', () => {
  it('holds only the latest batch and the in-flight calls, counting what was printed', async () => {
    const table = new CallTable();
    table.insert(makeCall(1, 'hit'), makeCall(2, 'pending'));
    const view = render(<Probe source={table} />);
    await waitFor(() => plain(view.lastFrame()).includes('serial=1'), 'the backlog');
    expect(plain(view.lastFrame())).to.equal('serial=1 batch=[call_000001=hit] live=1 printed=1 error=-');
    table.insert(makeCall(3, 'fault'));
    table.settle('call_000002', 'miss');
    await waitFor(() => plain(view.lastFrame()).includes('serial=2'), 'the second batch');
    expect(plain(view.lastFrame())).to.equal('serial=2 batch=[call_000002=miss,call_000003=fault] live=0 printed=3 error=-');
    view.unmount();
  });

  it('polls one at a time and stops polling once unmounted', async () => {
    const table = new CallTable();
    let inFlight = 0;
    let overlapped = false;
    const slow: CallSource<TailCall> = {
      recent: () => table.recent(),
      current: (ids) => table.current(ids),
      async since(afterId) {
        overlapped ||= inFlight > 0;
        inFlight++;
        await new Promise((resolve) => setTimeout(resolve, 30));
        inFlight--;
        return table.since(afterId);
      },
    };
    const view = render(<Probe source={slow} />);
    await waitFor(() => table.reads.since >= 3, 'three polls');
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 40));
    const reads = table.reads.since;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(table.reads.since).to.equal(reads);
    expect(overlapped).to.equal(false);
  });

  it('reports a failed poll as its error and polls no more', async () => {
    let calls = 0;
    const failing: CallSource<TailCall> = {
      recent: async () => [],
      current: async () => [],
      since: async () => {
        calls++;
        throw new Error('database unavailable');
      },
    };
    const view = render(<Probe source={failing} />);
    await waitFor(() => plain(view.lastFrame()).includes('error=database unavailable'), 'the error');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(calls).to.equal(1);
    view.unmount();
  });

  it('draws calls as they happen: a pending call live, then printed once as a hit', async () => {
    const table = new CallTable();
    const view = render(<TailApp source={table} options={{ intervalMs: 10 }} />);
    await waitFor(() => table.reads.recent === 1, 'the first poll');
    table.insert(makeCall(5, 'pending'));
    await waitFor(() => plain(view.lastFrame()).includes('1 in flight'), 'the pending call');
    expect(plain(view.lastFrame())).to.match(/\n10:00:01\.005 acme\.weather\.current +user:ada +anonymous +pending +- +- +-\n0 calls · 1 in flight/);
    table.settle('call_000005', 'hit');
    await waitFor(() => plain(view.lastFrame()).includes('1 call · 0 in flight'), 'the hit');
    const lines = plain(view.lastFrame()).split('\n');
    expect(lines).to.have.length(3);
    expect(lines[1]).to.match(/^10:00:01\.005 acme\.weather\.current +user:ada +anonymous +hit +200 +\$0\.002 +25 ms$/);
    view.unmount();
  });

  it('keeps up with hundreds of calls a second: each printed exactly once', async function () {
    this.timeout(20000);
    const table = new CallTable();
    const view = render(<TailApp source={table} options={{ intervalMs: 50 }} />);
    await waitFor(() => table.reads.recent === 1, 'the first poll');
    let n = 0;
    for (let burst = 0; burst < 20; burst++) {
      table.insert(...Array.from({ length: 50 }, () => makeCall(++n, n % 2 ? 'hit' : 'pending')));
      for (let id = n - 99; id <= n - 50; id++) if (id > 0 && id % 2 === 0) table.settle(`call_${String(id).padStart(6, '0')}`, 'hit');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const call of table.rows.values()) if (call.outcome === 'pending') table.settle(call.id, 'fault');
    await waitFor(() => plain(view.lastFrame()).includes(`${n} calls · 0 in flight`), `all ${n} calls`, 15000);
    const rows = plain(view.lastFrame()).split('\n').filter((line) => /^\d\d:/.test(line));
    expect(rows).to.have.length(1000);
    expect(new Set(rows).size).to.equal(1000);
    view.unmount();
  });
});
