/**
 * The run's floor on the mandated stack: a hapi server whose one route takes the run's JSON body, calls the
 * upstream named in argv[2] through undici (keep-alive) and answers its JSON, with no authentication, no
 * validation, no storage and no audit. What any run must cost at least before it checks a key or writes a
 * row: `npm run bench` sets it beside `GET /v1/me`. Prints `listening <port>`.
 */
import Hapi from '@hapi/hapi';
import { Agent, request } from 'undici';

const upstream = new URL(process.argv[2]);
const dispatcher = new Agent({ connections: 256 });

const server = Hapi.server({ host: '127.0.0.1', port: 0 });
server.route({
  method: 'POST',
  path: '/run',
  handler: async (req) => {
    const { city } = req.payload as { city: string };
    const answer = await request(new URL(`/weather/${encodeURIComponent(city)}`, upstream), { dispatcher });
    return answer.body.json();
  },
});
await server.start();
process.stdout.write(`listening ${server.info.port}\n`);
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
