import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { answerJsonString } from '../support/large-answer.js';
import { databaseEnv, initialOwnerKey, projectRoot, startGateway, type RunningGateway } from '../support/process.js';

const ANSWER_BYTES = 50 * 1024 * 1024;
const CONCURRENT_RUNS = 10;
const RSS_BOUND_MB = 300;
const DEFAULT_LIMIT = 10485760;

/** The resident memory of a process, from /proc/<pid>/status, in MB. */
function residentMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : 0;
}

/** An upstream on loopback whose every answer is a 50 MB JSON string, chunked: the gateway has to read to find out. */
async function startHugeUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => answerJsonString(res, ANSWER_BYTES, { sized: false }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

for (const dialect of dialects) {
  describe(`gateway serve under huge upstream answers [${dialect}]`, function () {
    this.timeout(180000);
    let database: TestDatabase;
    let upstream: { server: Server; url: string };
    let gateway: RunningGateway;
    let key: string;

    before(async () => {
      database = await createTestDatabase(dialect);
      upstream = await startHugeUpstream();
      gateway = await startGateway({
        ...databaseEnv(database),
        GATEWAY_CATALOG: path.join(projectRoot, 'test', 'fixtures', 'run-catalog.yaml'),
        GATEWAY_PROVIDERS__RT_OPEN__BASE_URL: upstream.url,
      });
      key = initialOwnerKey(database);
    });
    after(async () => {
      await gateway?.stop();
      upstream?.server.closeAllConnections();
      await new Promise((resolve) => upstream?.server.close(resolve));
      await database?.drop();
    });

    it(`stays under ${RSS_BOUND_MB} MB resident while ${CONCURRENT_RUNS} runs each get a 50 MB answer, each a 502 naming the default limit`, async () => {
      const pid = gateway.child.pid!;
      let peakMb = residentMb(pid);
      const sampler = setInterval(() => (peakMb = Math.max(peakMb, residentMb(pid))), 10);
      try {
        const answers = await Promise.all(
          Array.from({ length: CONCURRENT_RUNS }, () =>
            fetch(`${gateway.url}/v1/tasks/rt-open.weather.now/run`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'svc-only': 'rt-open' },
              body: JSON.stringify({ city: 'Oslo' }),
            }).then(async (res) => ({ status: res.status, body: (await res.json()) as { code: string; detail: string; call_id: string } })),
          ),
        );
        for (const answer of answers) {
          expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).to.equal(502);
          expect(answer.body.code).to.equal('upstream_error');
          expect(answer.body.detail).to.equal(`no route answered: rt-open: answer larger than ${DEFAULT_LIMIT} bytes`);
        }
      } finally {
        clearInterval(sampler);
      }
      peakMb = Math.max(peakMb, residentMb(pid));
      expect(peakMb, `peak resident memory ${Math.round(peakMb)} MB`).to.be.below(RSS_BOUND_MB);
    });

    it('logs each fault with its call id and what failed where', async () => {
      const res = await fetch(`${gateway.url}/v1/tasks/rt-open.weather.now/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'svc-only': 'rt-open' },
        body: JSON.stringify({ city: 'Bergen' }),
      });
      const problem = (await res.json()) as { call_id: string };
      // pino writes asynchronously; the line follows the answer closely.
      let line: { call_id?: string; msg?: string } | undefined;
      for (let tries = 0; tries < 100 && !line; tries++) {
        line = gateway
          .output()
          .split('\n')
          .filter((text) => text.startsWith('{'))
          .map((text) => JSON.parse(text) as { call_id?: string; msg?: string })
          .find((entry) => entry.call_id === problem.call_id);
        if (!line) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(line, gateway.output().slice(-2000)).to.not.equal(undefined);
      expect(line!.msg).to.equal(`upstream fault: rt-open: answer larger than ${DEFAULT_LIMIT} bytes`);
    });
  });
}
