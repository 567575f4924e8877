import Hapi from '@hapi/hapi';
import { expect } from 'chai';
import Joi from 'joi';
import { failAction, registerErrorHandling } from '../../src/http/errors.js';
import { noQuery, operation } from '../../src/http/operation.js';
import { headers } from '../../src/http/headers.js';
import { runHeaders } from '../../src/http/routes/tasks/run.js';

/** The run route's schemas on two routes: hapi validating each part, and one pass over all of them. */
async function twoServers(headerSchema: Joi.ObjectSchema = runHeaders) {
  const server = Hapi.server({ routes: { validate: { failAction, options: { abortEarly: false }, query: noQuery } } });
  server.validator(Joi);
  server.route(['hapi', 'one-pass'].map((name) => operation({
    method: 'POST',
    path: `/${name}/{id}`,
    options: {
      validate: {
        params: Joi.object({ id: Joi.string().max(5) }),
        headers: headerSchema,
        payload: Joi.object({ receipt_options: Joi.object({ principal: Joi.string().pattern(/^user:/) }) }).unknown(true).allow(null),
        inOnePass: name === 'one-pass',
      },
    },
    handler: (request) => ({ id: request.params.id, tag: request.headers['svc-tag'] ?? null, headers: request.headers, payload: request.payload }),
  })));
  registerErrorHandling(server, 'https://gw.test');
  await server.initialize();
  return server;
}

describe('operation: a route validated in one pass', () => {
  let server: Hapi.Server;
  before(async () => (server = await twoServers()));

  const cases: Array<{ what: string; id?: string; query?: string; headers?: Record<string, string>; payload?: unknown }> = [
    { what: 'valid', headers: { 'svc-tag': 'a' }, payload: { city: 'Oslo', receipt_options: { principal: 'user:1' } } },
    { what: 'no body' },
    { what: 'a bad header', headers: { 'svc-sort': 'price' } },
    { what: 'two bad headers', headers: { 'svc-sort': 'price', 'svc-tag': 'x'.repeat(201) } },
    { what: 'a bad path parameter', id: 'toolong' },
    { what: 'an unknown query parameter', query: '?x=1' },
    { what: 'a bad body field', payload: { receipt_options: { principal: 'someone' } } },
    { what: 'a body that is not an object', payload: [1] },
    { what: 'every part bad: the headers are named', id: 'toolong', query: '?x=1', headers: { 'svc-fallback': 'no' }, payload: { receipt_options: 1 } },
    { what: 'path, query and body bad: the path is named', id: 'toolong', query: '?x=1', payload: { receipt_options: 1 } },
    { what: 'query and body bad: the query is named', query: '?x=1&y=2', payload: { receipt_options: 1 } },
  ];
  for (const { what, id = 'abc', query = '', headers = {}, payload } of cases) {
    it(`answers as hapi's own validation: ${what}`, async () => {
      const answer = async (name: string) => {
        const res = await server.inject({ method: 'POST', url: `/${name}/${id}${query}`, headers, payload: payload as object });
        return { status: res.statusCode, body: res.result };
      };
      const [hapi, onePass] = [await answer('hapi'), await answer('one-pass')];
      expect(onePass).to.deep.equal(hapi);
      if (what !== 'valid' && what !== 'no body') expect(hapi.status).to.equal(400);
    });
  }
});

describe('operation: the headers of a request carrying none a route names', () => {
  // A schema of optional fields alone is not walked then; one that requires a header or fills one in is.
  const schemas: Array<[string, Joi.ObjectSchema]> = [
    ['optional fields', runHeaders],
    ['a required header', headers<{ 'svc-tag'?: string }>({ 'svc-tag': Joi.string().required() })],
    ['a header with a default', headers<{ 'svc-tag'?: string }>({ 'svc-tag': Joi.string().default('filled') })],
    ['a rule of the object', headers<{ 'svc-tag'?: string; 'svc-sort'?: string }>({ 'svc-tag': Joi.string(), 'svc-sort': Joi.string() }).or('svc-tag', 'svc-sort')],
  ];
  for (const [what, schema] of schemas) {
    it(`answers as hapi's own validation, for a schema with ${what}`, async () => {
      const server = await twoServers(schema);
      const answer = async (name: string) => {
        const res = await server.inject({ method: 'POST', url: `/${name}/abc`, headers: { 'x-other': '1' }, payload: { a: 1 } });
        return { status: res.statusCode, body: res.result };
      };
      expect(await answer('one-pass')).to.deep.equal(await answer('hapi'));
    });
  }
});
