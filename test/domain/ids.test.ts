import { expect } from 'chai';
import { newId } from '../../src/domain/ids.js';

describe('time-ordered ids', () => {
  it('sort in creation order, also many within one millisecond', () => {
    const now = Date.now();
    const ids = Array.from({ length: 500 }, () => newId('x', now));
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(ids.length);
    const later = newId('x', now + 1);
    expect(later > ids[ids.length - 1]).to.equal(true);
  });

  it('carry the time they are given, also an earlier one', () => {
    const early = newId('x', Date.UTC(2020, 0, 1));
    const late = newId('x', Date.UTC(2021, 0, 1));
    expect(early < late).to.equal(true);
    expect(early).to.match(/^x_[0-9a-hjkmnp-tv-z]{26}$/);
  });
});
