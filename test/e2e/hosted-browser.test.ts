import { expect } from 'chai';
import { createServer as listen } from 'node:net';
import type { Server } from '@hapi/hapi';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { dialects } from '../support/databases.js';
import { createHarness, type Harness } from '../support/harness.js';
import { startOAuthServer, type OAuthServer } from '../support/oauth-server.js';
import { putOAuthApp } from '../../src/domain/oauth-apps.js';
import { setRedirectAllowlist } from '../../src/domain/redirect-uris.js';
import { createServer } from '../../src/http/server.js';

/**
 * The hosted pages in a real browser (Debian's Chromium, headless, through playwright-core) against a
 * started gateway and the real OAuth server: a person clicking through consent, denial and revocation.
 * Nothing leaves loopback: any other request is aborted, and the integrator's callback is answered here.
 */
const APP_CALLBACK = 'https://app.example/connected';
const SCREENSHOTS = process.env.HOSTED_SCREENSHOTS ?? '/tmp';

async function freePort(): Promise<number> {
  const probe = listen();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

for (const dialect of dialects) {
  describe(`hosted pages in Chromium [${dialect}]`, function () {
    this.timeout(60000);
    let h: Harness;
    let oauth: OAuthServer;
    let server: Server;
    let browser: Browser;
    let gatewayUrl: string;

    before(async function () {
      this.timeout(90000);
      const port = await freePort();
      gatewayUrl = `http://127.0.0.1:${port}`;
      oauth = await startOAuthServer(gatewayUrl);
      h = await createHarness(dialect, { config: { catalog: { files: [oauth.catalogFile] }, server: { public_url: gatewayUrl } } });
      await putOAuthApp(h.gateway, h.organizationId, 'oidc-test', oauth.clients.basic);
      await setRedirectAllowlist(h.gateway, h.organizationId, [APP_CALLBACK]);
      server = await createServer(h.gateway, { host: '127.0.0.1', port });
      await server.start();
      browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
      await h?.close();
      await oauth?.close();
    });

    async function newContext(options: { mobile?: boolean } = {}): Promise<BrowserContext> {
      const context = await browser.newContext(options.mobile ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1100, height: 800 } });
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.origin === 'https://app.example') {
          return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>App</title><h1>Back in the app</h1>' });
        }
        return url.hostname === '127.0.0.1' ? route.continue() : route.abort();
      });
      return context;
    }

    async function screenshot(page: Page, name: string) {
      if (dialect === 'sqlite') await page.screenshot({ path: `${SCREENSHOTS}/hosted-${name}.png`, fullPage: true });
    }

    async function session(body: Record<string, unknown>) {
      const res = await h.request({ method: 'POST', url: '/v1/connect/sessions', payload: { provider: 'oidc-test', ...body } });
      expect(res.statusCode, res.payload).to.equal(201);
      return res.json as { session_id: string; url: string };
    }

    async function signIn(page: Page, login: string) {
      await page.waitForURL((url) => url.origin === oauth.issuer && url.pathname.startsWith('/interaction/'));
      await page.fill('input[name=login]', login);
      await page.fill('input[name=password]', 'any-password');
      await page.click('button[type=submit]');
      await page.waitForSelector('input[name=prompt][value=consent]', { state: 'attached' });
      await page.click('button[type=submit]');
    }

    it('clicks through consent and lands on the allowlisted callback with session_id and status=completed', async () => {
      const created = await session({ principal: 'user:ada', redirect_uri: APP_CALLBACK, scopes: ['contacts.read'] });
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(created.url);
      expect(await page.locator('h1').innerText()).to.equal('Connect your Example Accounts account');
      expect(await page.locator('ul.scopes li').allInnerTexts()).to.deep.equal(['openid', 'profile', 'contacts.read']);
      await screenshot(page, 'consent');
      await page.getByRole('button', { name: 'Continue to Example Accounts' }).click();
      await signIn(page, 'ada-account');
      await page.waitForURL((url) => url.origin === 'https://app.example');
      const landed = new URL(page.url());
      expect(landed.searchParams.get('session_id')).to.equal(created.session_id);
      expect(landed.searchParams.get('status')).to.equal('completed');
      const read = await h.request({ method: 'GET', url: `/v1/connect/sessions/${created.session_id}` });
      expect(read.json.status).to.equal('completed');

      // The used link, opened again, is a friendly page.
      await page.goto(created.url);
      expect(await page.locator('h1').innerText()).to.equal('This link cannot be used');
      expect(await page.locator('main').innerText()).to.include('already been used');
      await screenshot(page, 'error-used');
      await context.close();
    });

    // The journey continues: the integrator's backend runs an account task as the person who just consented.
    let adaToken: string;
    let adaConnection: string;
    it('runs an account task as that user with a principal-bound token: charged 0, identity naming the connection', async () => {
      const issued = await h.request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } });
      expect(issued.statusCode).to.equal(201);
      adaToken = issued.json.token;
      const sessions = await h.request({ method: 'GET', url: '/v1/connect/sessions?principal=user:ada&status=completed' });
      adaConnection = sessions.json.sessions[0].connection_id;
      const run = await h.request({
        method: 'POST',
        url: '/v1/tasks/oidc-test.contacts.list/run',
        payload: {},
        headers: { authorization: `Bearer ${adaToken}` },
      });
      expect(run.statusCode, run.payload).to.equal(200);
      expect(run.json.output.sub).to.equal('ada-account');
      expect(run.json.receipt).to.include({ identity: `connection:${adaConnection}`, principal: 'user:ada', charged_usd: 0 });
    });

    it('shows the done page on a phone-sized screen when there is no callback', async () => {
      const created = await session({ principal: 'user:phone' });
      const context = await newContext({ mobile: true });
      const page = await context.newPage();
      await page.goto(created.url);
      await screenshot(page, 'consent-mobile');
      const button = page.getByRole('button', { name: 'Continue to Example Accounts' });
      const box = (await button.boundingBox())!;
      expect(box.width).to.be.greaterThan(250);
      await button.click();
      await signIn(page, 'phone-account');
      await page.waitForURL((url) => url.pathname === '/v1/hosted/connect/callback');
      expect(await page.locator('h1').innerText()).to.equal('Your Example Accounts account is connected');
      await screenshot(page, 'done-mobile');
      await context.close();
    });

    it('lands a denial on the recovery page, whose Try again goes back to the provider', async () => {
      const created = await session({ principal: 'user:denier', redirect_uri: APP_CALLBACK });
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(created.url);
      await page.getByRole('button', { name: 'Continue to Example Accounts' }).click();
      await page.waitForURL((url) => url.origin === oauth.issuer && url.pathname.startsWith('/interaction/'));
      await page.getByRole('link', { name: '[ Cancel ]' }).click();
      await page.waitForURL((url) => url.origin === gatewayUrl);
      expect(await page.locator('h1').innerText()).to.equal('Access was not granted');
      expect(page.url()).to.not.include('app.example');
      await screenshot(page, 'recovery');
      const read = await h.request({ method: 'GET', url: `/v1/connect/sessions/${created.session_id}` });
      expect(read.json.status).to.equal('pending');

      await page.getByRole('button', { name: 'Try again' }).click();
      await signIn(page, 'denier-account');
      await page.waitForURL((url) => url.origin === 'https://app.example');
      expect(new URL(page.url()).searchParams.get('status')).to.equal('completed');
      await context.close();
    });

    it('lists the principal\'s connections on the connections page and revokes one with its button', async () => {
      const res = await h.request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal: 'user:ada' } });
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(res.json.url);
      expect(await page.locator('h1').innerText()).to.equal('Your connected accounts');
      const items = page.locator('ul.connections > li');
      expect(await items.count()).to.equal(1);
      expect(await items.first().innerText()).to.include('Account ada-account');
      await screenshot(page, 'connections');
      await page.getByRole('button', { name: 'Revoke Example Accounts account Account ada-account' }).click();
      await page.waitForURL((url) => url.searchParams.has('revoked'));
      expect(await page.getByRole('status').innerText()).to.include('Revoked Example Accounts account Account ada-account');
      expect(await page.locator('.badge').first().innerText()).to.equal('Revoked');
      expect(await page.getByRole('button', { name: /Revoke/ }).count()).to.equal(0);
      await screenshot(page, 'connections-revoked');
      const connections = await h.request({ method: 'GET', url: '/v1/connections?principal=user:ada' });
      expect(connections.json.connections.map((c: { status: string }) => c.status)).to.deep.equal(['revoked']);

      // A tampered link is a page, not JSON.
      await page.goto(res.json.url.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')));
      expect(await page.locator('h1').innerText()).to.equal('This page link is not valid');
      await screenshot(page, 'error-tampered');
      await context.close();
    });

    it('answers the next run after revocation with grant_required and a fresh connect_url, keeping the audit record', async () => {
      const run = await h.request({
        method: 'POST',
        url: '/v1/tasks/oidc-test.contacts.list/run',
        payload: {},
        headers: { authorization: `Bearer ${adaToken}` },
      });
      expect(run.statusCode, run.payload).to.equal(403);
      expect(run.json.code).to.equal('grant_required');
      expect(run.json.connect_url).to.match(new RegExp(`^${gatewayUrl}/v1/hosted/connect/`));
      const calls = await h.request({ method: 'GET', url: `/v1/calls?connection=${adaConnection}` });
      expect(calls.json.calls).to.have.length(1);
      expect(calls.json.calls[0].outcome).to.equal('hit');
    });
  });
}
