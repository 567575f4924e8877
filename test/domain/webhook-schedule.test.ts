import { expect } from 'chai';
import { retryAfterMs, retryDelay } from '../../src/domain/webhooks/schedule.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('webhook retry schedule', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h with the default base, then repeats the last step', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((n) => retryDelay(n, 5000, middle))).to.deep.equal([
      5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR,
    ]);
  });

  it('scales linearly with the base and jitters within +/-10 %', () => {
    expect(retryDelay(2, 50, () => 0.5)).to.equal(3000);
    expect(retryDelay(1, 5000, () => 0)).to.equal(4500);
    expect(retryDelay(1, 5000, () => 1)).to.equal(5500);
  });

  it('reads Retry-After as seconds or an HTTP date, caps it at a day, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('120', now)).to.equal(120 * SECOND);
    expect(retryAfterMs(' 3 ', now)).to.equal(3 * SECOND);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:30 GMT', now)).to.equal(30 * SECOND);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).to.equal(0);
    expect(retryAfterMs('999999', now)).to.equal(24 * HOUR);
    expect(retryAfterMs(['7', '9'], now)).to.equal(7 * SECOND);
    for (const unreadable of [undefined, '', 'soon', '-5']) expect(retryAfterMs(unreadable, now)).to.equal(null);
  });
});
