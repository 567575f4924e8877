/**
 * The upstream of `npm run bench:abuse`, in its own process: a small answer for the tenant's runs and the
 * answers the review sent to hurt the gateway. Prints `listening <port>`.
 *
 * - GET /weather/{city}: a 130-byte JSON document (the tenant's run, as in `npm run bench`);
 * - GET /big: a JSON array of 1 KiB strings just under the 10 MiB answer limit (10,200 values);
 * - GET /many: about 10 MiB of `[{},{},...]` (3.5 million values);
 * - GET /deep: 100,000 arrays nested one inside the other.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const weather = Buffer.from(JSON.stringify({ city: 'Paris', temperature_c: 21.5, wind_kph: 11, humidity: 0.42, conditions: 'clear', observed_at: '2026-11-22T10:00:00Z' }));
const big = Buffer.from(JSON.stringify(Array.from({ length: 10_200 }, (_, i) => `${i}:${'y'.repeat(1017 - String(i).length)}`)));
const many = Buffer.from(`[${new Array(3_500_000).fill('{}').join(',')}]`);
const deep = Buffer.from(`${'['.repeat(100_000)}1${']'.repeat(100_000)}`);

const answers: Record<string, Buffer> = { '/big': big, '/many': many, '/deep': deep };

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = answers[req.url ?? ''] ?? weather;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
