import Hapi from '@hapi/hapi';
import { expect } from 'chai';
import { collectWhenIdle } from '../../src/http/idle-collection.js';

const IDLE_MS = 200;
const SECOND_MS = 20;
const GROWTH = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serve collects garbage once idle after heavy work', () => {
  let resident = 0;
  let collections: number[] = [];
  let release: () => void = () => undefined;
  let server: Hapi.Server;

  beforeEach(() => {
    resident = 100_000;
    collections = [];
    server = Hapi.server();
    server.route({ method: 'GET', path: '/grow', handler: () => ((resident += GROWTH), 'grown') });
    server.route({
      method: 'GET',
      path: '/slow',
      handler: async () => {
        resident += GROWTH;
        await new Promise<void>((resolve) => (release = resolve));
        return 'done';
      },
    });
    collectWhenIdle(server, { idleMs: IDLE_MS, secondMs: SECOND_MS, growthBytes: GROWTH, collect: () => collections.push(resident), residentBytes: () => resident });
  });

  it('collects twice, the second time a little later, once memory grew and nothing is in flight', async () => {
    await server.inject('/grow');
    await sleep(IDLE_MS / 10);
    expect(collections).to.have.length(0);
    await sleep(IDLE_MS + SECOND_MS + 30);
    expect(collections).to.have.length(2);
  });

  it('does not collect when memory grew less than the threshold', async () => {
    resident -= 1;
    await server.inject('/grow');
    await sleep(IDLE_MS + SECOND_MS + 30);
    expect(collections).to.have.length(0);
  });

  it('waits while a request is in flight, then collects once it is answered', async () => {
    const answer = server.inject('/slow');
    await sleep(IDLE_MS * 2);
    expect(collections).to.have.length(0);
    release();
    await answer;
    await sleep(IDLE_MS + SECOND_MS + 30);
    expect(collections).to.have.length(2);
  });
});
