/**
 * The run's floor on the mandated stack: a hapi server whose one route takes the run's JSON body, calls the
 * upstream named in argv[2] through undici (keep-alive) and answers its JSON, with no authentication, no
 * validation and no audit. What any run must cost at least before it checks a key or writes a row: `npm run
 * bench` sets it beside `GET /v1/me`. Given a file in argv[3], the route also makes the two writes a run must
 * commit (a row before the upstream call, its outcome after), through the gateway's own SQLite driver (group
 * commit, WAL, `synchronous=NORMAL`) into a table of one primary key: the floor with its storage.
 * Prints `listening <port>`.
 */
import { randomUUID } from 'node:crypto';
import Hapi from '@hapi/hapi';
import { Agent, request } from 'undici';
import { openSqliteDirect, type DirectDriver } from '../src/db/direct.js';

const upstream = new URL(process.argv[2]);
const dispatcher = new Agent({ connections: 256 });
const storage: DirectDriver | undefined = process.argv[3]
  ? await openSqliteDirect(process.argv[3], 'PRAGMA busy_timeout=10000; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;')
  : undefined;
await storage?.run('CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, input TEXT NOT NULL, status INTEGER, answer TEXT)', []);

const server = Hapi.server({ host: '127.0.0.1', port: 0 });
server.route({
  method: 'POST',
  path: '/run',
  handler: async (req) => {
    const { city } = req.payload as { city: string };
    const id = randomUUID();
    await storage?.run('INSERT INTO runs (id, input) VALUES (?, ?)', [id, JSON.stringify(req.payload)]);
    const answer = await request(new URL(`/weather/${encodeURIComponent(city)}`, upstream), { dispatcher });
    const body = await answer.body.json();
    await storage?.run('UPDATE runs SET status = ?, answer = ? WHERE id = ?', [answer.statusCode, JSON.stringify(body), id]);
    return body;
  },
});
await server.start();
process.stdout.write(`listening ${server.info.port}\n`);
process.on('SIGTERM', () => void server.stop().then(() => storage?.close()).then(() => process.exit(0)));
