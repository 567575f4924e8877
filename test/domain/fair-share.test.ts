import { expect } from 'chai';
import { FairShare, type FairShareSettings, type Refusal, type Turn } from '../../src/domain/fair-share.js';

const KIB = 1024;
const settings: FairShareSettings = { cheap_bytes: 4 * KIB, max_debt_bytes: 16 * KIB, debt_half_life_ms: 100, max_waiting: 2, max_wait_ms: 60000 };

const turnOf = (entry: Turn | Refusal): Turn => {
  if ('retryAfterMs' in entry) throw new Error('refused');
  return entry;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request of `organization` that runs at once, or throws. */
function startNow(share: FairShare, organization: string): Turn {
  const turn = turnOf(share.enter(organization, 0));
  expect(turn.admitted, `${organization} waits`).to.equal(undefined);
  return turn;
}

describe('fair share of a process between organizations', () => {
  it('counts only the bytes beyond fair_share.cheap_bytes, and halves the debt every half-life', async () => {
    const share = new FairShare(settings);
    startNow(share, 'a').finish(4 * KIB);
    expect(share.debtOf('a')).to.equal(0);
    startNow(share, 'a').finish(36 * KIB);
    expect(share.debtOf('a')).to.be.within(31 * KIB, 32 * KIB);
    await sleep(100);
    expect(share.debtOf('a')).to.be.within(12 * KIB, 16.5 * KIB);
  });

  it('never holds back an organization in debt while no other organization has a request running', () => {
    const share = new FairShare(settings);
    startNow(share, 'a').finish(100 * KIB);
    startNow(share, 'a').finish(100 * KIB);
    startNow(share, 'a');
  });

  it('holds an organization in debt back until its debt has decayed, while another one and its cheap requests go on', async () => {
    const share = new FairShare(settings);
    startNow(share, 'a').finish(68 * KIB);
    const other = startNow(share, 'b');
    const started = performance.now();
    const held = turnOf(share.enter('a', 0));
    expect(held.admitted).to.be.a('promise');
    startNow(share, 'b').finish(1 * KIB);
    startNow(share, 'c').finish(4 * KIB);
    await held.admitted;
    // 64 KiB of debt takes two half-lives to come under 16 KiB.
    expect(performance.now() - started).to.be.at.least(190);
    held.finish(0);
    other.finish(0);
  });

  it('holds back an organization exactly past fair_share.max_debt_bytes, not at it', () => {
    const share = new FairShare({ ...settings, debt_half_life_ms: 600000 });
    startNow(share, 'a').finish(20 * KIB - 1);
    startNow(share, 'b');
    // Just under 16 KiB of debt (decay takes a little): at once.
    startNow(share, 'a').finish(0);
    startNow(share, 'a').finish(4 * KIB + 2);
    // Now just over it: it waits.
    expect(turnOf(share.enter('a', 0)).admitted).to.be.a('promise');
  });

  it(`lets fair_share.max_waiting (${settings.max_waiting}) requests wait and refuses one more, with the time its debt needs`, async () => {
    const share = new FairShare(settings);
    startNow(share, 'a').finish(68 * KIB);
    const other = startNow(share, 'b');
    const waiting = [turnOf(share.enter('a', 0)), turnOf(share.enter('a', 0))];
    const refused = share.enter('a', 0) as Refusal;
    expect(refused.retryAfterMs).to.be.within(1000, 1100);
    // One that leaves the queue while waiting makes room for another.
    waiting[1].finish(0);
    const again = turnOf(share.enter('a', 0));
    const order: number[] = [];
    void waiting[0].admitted!.then(() => order.push(0));
    void again.admitted!.then(() => order.push(1));
    other.finish(0);
    await again.admitted;
    await waiting[0].admitted;
    expect(order).to.deep.equal([0, 1]);
  });

  it('lets no request wait past fair_share.max_wait_ms, whatever its organization owes', async () => {
    const share = new FairShare({ ...settings, debt_half_life_ms: 600000, max_wait_ms: 50 });
    startNow(share, 'a').finish(68 * KIB);
    const other = startNow(share, 'b');
    const started = performance.now();
    const waiting = [turnOf(share.enter('a', 0)), turnOf(share.enter('a', 0))];
    await Promise.all(waiting.map((turn) => turn.admitted));
    expect(performance.now() - started).to.be.within(45, 1000);
    expect(share.debtOf('a')).to.be.above(60 * KIB);
    other.finish(0);
  });
});
