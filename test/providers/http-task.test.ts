import { expect } from 'chai';
import type { Provider, TaskRequest } from '../../src/domain/catalog/types.js';
import { GatewayError } from '../../src/domain/errors.js';
import { buildTaskRequest } from '../../src/providers/http-task.js';

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

function refusal(action: () => unknown): GatewayError {
  try {
    action();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected the request to be refused');
}

describe('request templates: a path field is one segment, and the URL stays under the base URL', () => {
  it('encodes a path field whole, "/" and "%" included, under the base path', () => {
    expect(build('/items/{id}', { id: '../a/b%2e' }).url).to.equal('https://api.acme.test/v2/items/..%2Fa%2Fb%252e');
    expect(build('/items/{id}', { id: 7 })).to.deep.include({ url: 'https://api.acme.test/v2/items/7', maxResponseBytes: 1024, timeoutMs: 1000 });
  });

  it('refuses an empty, "." or ".." path field as invalid_input naming it', () => {
    for (const id of ['', '.', '..']) {
      const error = refusal(() => build('/items/{id}/parts', { id }));
      expect(error.code).to.equal('invalid_input');
      expect((error.extras.invalid_params as Array<{ name: string }>).map((p) => p.name)).to.deep.equal(['id']);
    }
  });

  it('never builds a URL outside the base URL, even from a template that climbs out of it', () => {
    for (const path of ['/../admin', '/../v22/items', '/items/../../..']) {
      const error = refusal(() => build(path, {}));
      expect(error.code, path).to.equal('upstream_error');
      expect(error.message).to.equal('acme: the request path leaves https://api.acme.test/v2/; nothing was sent');
    }
    expect(build('/items/../parts', {}).url).to.equal('https://api.acme.test/v2/parts');
  });
});
