import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Provider from 'oidc-provider';
import { putOAuthApp } from '../../src/domain/oauth-apps.js';
import { setRedirectAllowlist } from '../../src/domain/redirect-uris.js';
import type { Dialect } from './databases.js';
import { createHarness, type Harness } from './harness.js';

/**
 * A real OAuth2/OIDC authorization server (oidc-provider, the certified implementation) on 127.0.0.1,
 * standing in for a third-party provider: authorization code with PKCE, refresh tokens, RFC 7009
 * revocation, and userinfo (`/me`) as the account probe. Its devInteractions login accepts any login and
 * password; the login becomes the account id (`sub`).
 */
export interface OAuthServer {
  issuer: string;
  /** Confidential clients: `basic` authenticates with client_secret_basic, `post` with client_secret_post. */
  clients: { basic: TestClient; post: TestClient };
  /** A catalog file (rendered from test/fixtures/oauth-catalog.yaml) whose providers point at this server. */
  catalogFile: string;
  /** Every request path the server answered, e.g. to see that revocation reached it. */
  requests: Array<{ method: string; path: string }>;
  provider: any;
  close(): Promise<void>;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
}

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'oauth-catalog.yaml');

export async function startOAuthServer(gatewayPublicUrl: string): Promise<OAuthServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const redirectUri = `${gatewayPublicUrl}/v1/hosted/connect/callback`;
  const clients = {
    basic: { client_id: 'gateway-basic', client_secret: randomBytes(24).toString('base64url') },
    post: { client_id: 'gateway-post', client_secret: randomBytes(24).toString('base64url') },
  };
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      { ...clients.basic, token_endpoint_auth_method: 'client_secret_basic' },
      { ...clients.post, token_endpoint_auth_method: 'client_secret_post' },
    ].map((client) => ({
      ...client,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    })),
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    features: { devInteractions: { enabled: true }, revocation: { enabled: true }, userinfo: { enabled: true } },
    pkce: { methods: ['S256'], required: () => true },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'contacts.read'],
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, name: `Account ${sub}`, email: `${sub}@example.test` }),
    }),
  });
  const requests: OAuthServer['requests'] = [];
  const handle = provider.callback();
  http.on('request', (req, res) => {
    requests.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0] });
    handle(req, res);
  });

  const catalogDir = mkdtempSync(path.join(tmpdir(), 'gw-oauth-catalog-'));
  const catalogFile = path.join(catalogDir, 'oauth-catalog.yaml');
  writeFileSync(catalogFile, readFileSync(fixture, 'utf8').replaceAll('{issuer}', issuer));

  return {
    issuer,
    clients,
    catalogFile,
    requests,
    provider,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

/** One answer seen by TestBrowser; redirects are not followed. */
export interface Hop {
  url: string;
  status: number;
  location?: string;
  body: string;
  headers: Record<string, string>;
}

type Inject = (options: { method: string; url: string; payload?: string; headers: Record<string, string> }) => Promise<{
  statusCode: number;
  headers: Record<string, unknown>;
  payload: string;
}>;

/**
 * A minimal browser for HTTP-level tests: a cookie jar per host, manual redirects, urlencoded form posts.
 * Requests to the gateway's public URL go through hapi's inject (no socket); all others through fetch.
 */
export class TestBrowser {
  readonly jar = new Map<string, Map<string, string>>();

  constructor(private readonly gatewayUrl: string, private readonly inject: Inject) {}

  cookie(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).host)?.get(name);
  }

  setCookie(url: string, name: string, value: string | null): void {
    const host = new URL(url).host;
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    if (value === null) cookies.delete(name);
    else cookies.set(name, value);
    this.jar.set(host, cookies);
  }

  private store(url: string, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const expired = attributes.some((a) => /^max-age=(0|-)/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()));
      this.setCookie(url, name, expired || value === '' ? null : value);
    }
  }

  async go(url: string, options: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Hop> {
    const method = options.method ?? (options.form ? 'POST' : 'GET');
    const cookies = [...(this.jar.get(new URL(url).host) ?? new Map()).entries()].map(([n, v]) => `${n}=${v}`).join('; ');
    const headers: Record<string, string> = { ...options.headers };
    if (cookies) headers.cookie = cookies;
    const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (url.startsWith(`${this.gatewayUrl}/`)) {
      const res = await this.inject({ method, url: url.slice(this.gatewayUrl.length), payload: body, headers });
      const setCookie = res.headers['set-cookie'];
      this.store(url, Array.isArray(setCookie) ? setCookie : setCookie ? [String(setCookie)] : []);
      const flat = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
      return { url, status: res.statusCode, location: flat.location, body: res.payload, headers: flat };
    }
    const res = await fetch(url, { method, headers, body, redirect: 'manual' });
    this.store(url, res.headers.getSetCookie());
    const location = res.headers.get('location');
    return {
      url,
      status: res.status,
      location: location ? new URL(location, url).toString() : undefined,
      body: await res.text(),
      headers: Object.fromEntries(res.headers.entries()),
    };
  }
}

function formOf(page: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  if (!form) return null;
  const fields: Record<string, string> = {};
  for (const [input] of form[2].matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(input)?.[1] ?? '';
  }
  return { action: form[1], fields };
}

/**
 * Walks the test server's authorization pages as a person would: signs in as `login` (any password),
 * approves the consent, or cancels (`deny`), until the server redirects to the gateway. Returns that
 * callback URL without requesting it.
 */
export async function authorizeAtProvider(browser: TestBrowser, gatewayUrl: string, authorizeUrl: string, options: { login: string; deny?: boolean }): Promise<string> {
  let url = authorizeUrl;
  let form: Record<string, string> | undefined;
  for (let step = 0; step < 20; step++) {
    const hop = await browser.go(url, form ? { form } : {});
    form = undefined;
    if (hop.location) {
      if (hop.location.startsWith(`${gatewayUrl}/`)) return hop.location;
      url = hop.location;
      continue;
    }
    if (hop.status !== 200) throw new Error(`authorization server answered ${hop.status}: ${hop.body.slice(0, 300)}`);
    if (options.deny) {
      url = new URL(`${new URL(url).pathname}/abort`, url).toString();
      continue;
    }
    const found = formOf(hop.body);
    if (!found) throw new Error(`no form on the authorization page: ${hop.body.slice(0, 300)}`);
    url = new URL(found.action, url).toString();
    form = found.fields.prompt === 'login' ? { ...found.fields, login: options.login, password: 'any-password' } : found.fields;
  }
  throw new Error('the authorization server never redirected back to the gateway');
}

/**
 * A gateway harness (see harness.ts) whose catalog includes the test server's providers, with the
 * organization's OAuth app set for `oidc-test` (client_secret_basic) and `oidc-test-post`
 * (client_secret_post), and `https://app.example/connected` on its redirect allowlist.
 */
export async function startConnectHarness(dialect: Dialect, config: Record<string, unknown> = {}): Promise<{ h: Harness; oauth: OAuthServer; browser: () => TestBrowser; close(): Promise<void> }> {
  const oauth = await startOAuthServer(GATEWAY_URL);
  const h = await createHarness(dialect, { config: { catalog: { files: [oauth.catalogFile] }, ...config } });
  await putOAuthApp(h.gateway, h.organizationId, 'oidc-test', oauth.clients.basic);
  await putOAuthApp(h.gateway, h.organizationId, 'oidc-test-post', oauth.clients.post);
  await setRedirectAllowlist(h.gateway, h.organizationId, [APP_CALLBACK]);
  return {
    h,
    oauth,
    browser: () => new TestBrowser(GATEWAY_URL, (options) => h.server.inject(options)),
    async close() {
      await h.close();
      await oauth.close();
    },
  };
}

/** The harness's public URL (hapi inject serves it) and the integrator's allowlisted callback. */
export const GATEWAY_URL = 'http://gateway.test';
export const APP_CALLBACK = 'https://app.example/connected';
