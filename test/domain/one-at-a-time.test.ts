import { expect } from 'chai';
import { oneAtATime } from '../../src/domain/one-at-a-time.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('one at a time per key', () => {
  it('runs the work of one key in the order asked, never two at once, while other keys go on', async () => {
    const queue = oneAtATime<string>();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const work = (key: string, name: string) =>
      queue(key, async () => {
        running++;
        most = Math.max(most, running);
        log.push(`${name} starts`);
        await tick();
        await tick();
        log.push(`${name} ends`);
        running--;
        return name;
      });
    const other = queue('b', async () => {
      log.push('b starts');
      return 'b';
    });
    const answers = await Promise.all([work('a', 'a1'), work('a', 'a2'), other]);
    expect(answers).to.deep.equal(['a1', 'a2', 'b']);
    expect(log.indexOf('b starts')).to.be.below(log.indexOf('a1 ends'));
    expect(log.filter((line) => line.startsWith('a'))).to.deep.equal(['a1 starts', 'a1 ends', 'a2 starts', 'a2 ends']);
    expect(most).to.equal(1);
  });

  it('goes on after a failure, which only its own caller sees', async () => {
    const queue = oneAtATime<string>();
    const failed = queue('a', async () => {
      throw new Error('no');
    });
    const next = queue('a', async () => 'next');
    expect(await failed.catch((error: Error) => error.message)).to.equal('no');
    expect(await next).to.equal('next');
  });
});

describe('one at a time per key, resting after each piece of work', () => {
  it('rests the key restFactor times as long as its work took, while other keys go on', async () => {
    const queue = oneAtATime<string>(4);
    const log: string[] = [];
    const begin = performance.now();
    const starts: number[] = [];
    const piece = (name: string) =>
      queue('a', async () => {
        starts.push(performance.now() - begin);
        log.push(name);
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
    const first = piece('a1');
    const second = piece('a2');
    await first;
    // The key rests now; another key's work is not held up by it.
    await queue('b', async () => log.push('b'));
    await second;
    expect(log).to.deep.equal(['a1', 'b', 'a2']);
    // The second piece starts after the first's 20 ms and a rest of four times that.
    expect(starts[1] - starts[0]).to.be.at.least(95);
  });
});
