import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exchangeCode,
  OAuthUnavailable,
  refreshTokens,
  revokeToken,
  type OAuth2Auth,
} from '../../src/providers/oauth2.js';
import type { UpstreamLimits } from '../../src/providers/upstream.js';

/** An OAuth server on 127.0.0.1 answering every request as the test says, counting what reaches it. */
interface TokenServer {
  url: string;
  paths: string[];
  answer: (res: ServerResponse) => void;
  close(): Promise<void>;
}

async function startTokenServer(): Promise<TokenServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const tokenServer: TokenServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths: [],
    answer: (res) => res.writeHead(500).end(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    tokenServer.paths.push(req.url ?? '');
    req.resume().on('end', () => tokenServer.answer(res));
  });
  return tokenServer;
}

const LIMIT = 4096;
const client = { client_id: 'gateway', client_secret: 'client-secret' };

/** A valid token answer of exactly `bytes` bytes: an extra member pads it. */
function tokenAnswer(bytes: number): string {
  const base = { access_token: 'new-access', token_type: 'Bearer', expires_in: 3600, refresh_token: 'new-refresh', padding: '' };
  return JSON.stringify({ ...base, padding: 'x'.repeat(bytes - JSON.stringify(base).length) });
}

function answerJson(text: string, { sized }: { sized: boolean }) {
  return (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(sized ? { 'content-length': Buffer.byteLength(text) } : {}) });
    res.end(text);
  };
}

async function failure(work: () => Promise<unknown>): Promise<Error> {
  try {
    await work();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the request to fail');
}

describe('OAuth requests follow the outbound policy: timeout, answer size limit, no redirects', () => {
  let server: TokenServer;
  let elsewhere: TokenServer;
  let auth: OAuth2Auth & { revoke_url: string };
  const limits: UpstreamLimits = { timeoutMs: 5000, maxResponseBytes: LIMIT };
  const exchange = () =>
    exchangeCode(
      auth,
      client,
      { parameters: new URLSearchParams({ code: 'the-code', state: 'the-state' }), expectedState: 'the-state', redirectUri: 'http://gateway.test/callback', codeVerifier: 'v'.repeat(43) },
      limits,
    );
  const refresh = () => refreshTokens(auth, client, 'old-refresh', limits);

  before(async () => {
    [server, elsewhere] = await Promise.all([startTokenServer(), startTokenServer()]);
  });
  after(async () => Promise.all([server.close(), elsewhere.close()]));
  beforeEach(() => {
    auth = {
      type: 'oauth2',
      authorize_url: `${server.url}/authorize`,
      token_url: `${server.url}/token`,
      revoke_url: `${server.url}/revoke`,
      scopes: [],
      pkce: true,
    };
    server.paths.length = 0;
    elsewhere.paths.length = 0;
  });

  it('accepts a token answer of exactly the size limit, for a refresh and a code exchange', async () => {
    server.answer = answerJson(tokenAnswer(LIMIT), { sized: true });
    expect((await refresh()).access_token).to.equal('new-access');
    expect((await exchange()).refresh_token).to.equal('new-refresh');
  });

  for (const sized of [true, false]) {
    it(`fails as unavailable, worded like an upstream failure, on a token answer one byte over the limit (${sized ? 'with' : 'without'} content-length)`, async () => {
      server.answer = answerJson(tokenAnswer(LIMIT + 1), { sized });
      for (const work of [refresh, exchange]) {
        const error = await failure(work);
        expect(error).to.be.instanceOf(OAuthUnavailable);
        expect(error.message).to.equal(`answer larger than ${LIMIT} bytes`);
      }
    });
  }

  it('fails a revocation whose answer is over the limit as unavailable', async () => {
    server.answer = answerJson(`"${'x'.repeat(LIMIT)}"`, { sized: true });
    const error = await failure(() => revokeToken(auth, client, 'a-token', 'access_token', limits));
    expect(error).to.be.instanceOf(OAuthUnavailable);
    expect(error.message).to.equal(`answer larger than ${LIMIT} bytes`);
  });

  it('fails as unavailable when the token endpoint does not answer within the timeout', async () => {
    server.answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).write('{');
    const error = await failure(() => refreshTokens(auth, client, 'old-refresh', { ...limits, timeoutMs: 200 }));
    expect(error).to.be.instanceOf(OAuthUnavailable);
    expect(error.message).to.equal('no answer within 200 ms');
  });

  it('does not follow a redirect from the token endpoint: its target receives nothing', async () => {
    server.answer = (res) => res.writeHead(307, { location: `${elsewhere.url}/token` }).end();
    elsewhere.answer = answerJson(tokenAnswer(200), { sized: true });
    for (const work of [refresh, exchange]) expect(await failure(work)).to.be.instanceOf(OAuthUnavailable);
    expect(server.paths).to.deep.equal(['/token', '/token']);
    expect(elsewhere.paths).to.deep.equal([]);
  });
});
