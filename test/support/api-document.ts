import type { Server, ServerInjectOptions } from '@hapi/hapi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { apiDocument } from '../../src/http/openapi.js';

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  payload: string;
}

type Check = (method: string, url: ServerInjectOptions['url'], answer: Answer) => void;

const checks = new WeakMap<Server, Check>();

/** The route a request reaches; none for a path hapi cannot route (malformed percent-encoding is refused before routing). */
function routeOf(server: Server, method: string, path: string) {
  try {
    return server.match(method as Parameters<Server['match']>[0], path);
  } catch {
    return null;
  }
}

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * Checks an answer against the API document the server publishes: the route must be in it, the status
 * listed for it, the media type declared and a JSON body valid against the schema for that status.
 * Drift between what the server answers and what the document says fails the test that made the request.
 */
function checkerFor(server: Server): Check {
  const document = apiDocument(server, 'http://gateway.test') as {
    paths: Record<string, Record<string, { responses: Record<string, any> }>>;
    components: { responses: Record<string, any> };
  };
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the document's other members are not schema keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, 'api');
  return (method, url, answer) => {
    const lower = method.toLowerCase();
    if (lower === 'options' || lower === 'head') return;
    const route = routeOf(server, lower, typeof url === 'string' ? new URL(url, 'http://gateway.test').pathname : (url.pathname ?? '/'));
    if (!route) return;
    const where = `${method.toUpperCase()} ${route.path} answered ${answer.statusCode}`;
    const operation = document.paths[route.path]?.[route.method];
    if (!operation) throw new Error(`${where}, but the API document lacks the route`);
    const listed = operation.responses[String(answer.statusCode)];
    // A response shared by several routes is a reference to the document's named responses.
    const shared = listed?.$ref ? String(listed.$ref).split('/').pop()! : undefined;
    const response = shared ? document.components.responses[shared] : listed;
    if (!response) throw new Error(`${where}, a status the API document does not list for it (${answer.payload.slice(0, 300)})`);
    if (!response.content) {
      if (answer.payload !== '') throw new Error(`${where} with a body, but the API document says it has none`);
      return;
    }
    const mediaType = String(answer.headers['content-type'] ?? '').split(';')[0].trim();
    if (!response.content[mediaType]) throw new Error(`${where} as ${mediaType}, not a media type the API document lists`);
    if (!mediaType.endsWith('json')) return;
    const responsePath = shared ? ['components', 'responses', shared] : ['paths', route.path, route.method, 'responses', String(answer.statusCode)];
    const validate = ajv.getSchema(`api#/${pointer(...responsePath, 'content', mediaType, 'schema')}`)!;
    if (!validate(JSON.parse(answer.payload))) {
      throw new Error(`${where} with a body the API document does not describe: ${ajv.errorsText(validate.errors)} (${answer.payload.slice(0, 300)})`);
    }
  };
}

/** Throws when the answer to `method url` is not what the server's own API document describes. */
export function checkAgainstDocument(server: Server, method: string, url: ServerInjectOptions['url'], answer: Answer): void {
  let check = checks.get(server);
  if (!check) checks.set(server, (check = checkerFor(server)));
  check(method, url, answer);
}
