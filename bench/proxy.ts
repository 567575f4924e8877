/**
 * The baseline: a bare node:http keep-alive reverse proxy to the upstream named in argv[2], no
 * auth, no audit, no validation. Prints `listening <port>`.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const target = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer((req, res) => {
  const { connection: _hopByHop, ...headers } = req.headers;
  const forward = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...headers, host: target.host }, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forward.on('error', () => res.writeHead(502).end());
  req.pipe(forward);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
