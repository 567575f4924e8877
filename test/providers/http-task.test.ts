import { expect } from 'chai';
import { InputRefused, RequestOutsideProvider } from '../../src/providers/errors.js';
import { buildTaskRequest } from '../../src/providers/http-task.js';
import type { Provider, TaskRequest } from '../../src/providers/shapes.js';

const provider: Provider = {
  slug: 'acme',
  name: 'Acme',
  base_url: 'https://api.acme.test/v2/',
  auth: { type: 'api_key', header: 'Authorization', template: 'Bearer {secret}' },
  zero_retention: false,
};
const limits = { timeoutMs: 1000, maxResponseBytes: 1024 };

function build(path: string, input: Record<string, unknown>) {
  const template: TaskRequest = { method: 'GET', path };
  return buildTaskRequest(provider, template, input, 'key-1', limits);
}

function refusal(action: () => unknown): Error {
  try {
    action();
  } catch (err) {
    if (err instanceof InputRefused || err instanceof RequestOutsideProvider) return err;
    throw err;
  }
  throw new Error('expected the request to be refused');
}

describe('request templates: a path field is one segment, and the URL stays under the base URL', () => {
  it('encodes a path field whole, "/" and "%" included, under the base path', () => {
    expect(build('/items/{id}', { id: '../a/b%2e' }).url).to.equal('https://api.acme.test/v2/items/..%2Fa%2Fb%252e');
    expect(build('/items/{id}', { id: 7 })).to.deep.include({ url: 'https://api.acme.test/v2/items/7', maxResponseBytes: 1024, timeoutMs: 1000 });
  });

  it('refuses an empty, "." or ".." path field as the caller\'s input, naming it', () => {
    for (const id of ['', '.', '..']) {
      const error = refusal(() => build('/items/{id}/parts', { id }));
      expect(error).to.be.instanceOf(InputRefused);
      expect((error as InputRefused).problems.map((p) => p.name)).to.deep.equal(['id']);
    }
  });

  it('never builds a URL outside the base URL, even from a template that climbs out of it', () => {
    for (const path of ['/../admin', '/../v22/items', '/items/../../..']) {
      const error = refusal(() => build(path, {}));
      expect(error, path).to.be.instanceOf(RequestOutsideProvider);
      expect(error.message).to.equal('acme: the request path leaves https://api.acme.test/v2/; nothing was sent');
    }
    expect(build('/items/../parts', {}).url).to.equal('https://api.acme.test/v2/parts');
  });
});
