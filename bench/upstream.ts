/**
 * The loopback upstream every benchmark path ends at: a small JSON answer, keep-alive, no work.
 * Runs as its own process so its CPU is not the load generator's. Prints `listening <port>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ city: 'Paris', temperature_c: 21.5, wind_kph: 11, humidity: 0.42, conditions: 'clear', observed_at: '2026-11-22T10:00:00Z' });

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
