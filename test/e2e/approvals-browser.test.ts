import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { createServer as listen } from 'node:net';
import type { Server } from '@hapi/hapi';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { renameOrganization } from '../../src/domain/organizations.js';
import { createServer } from '../../src/http/server.js';
import { startRunFakes, type RunFakes } from '../fixtures/run-providers.js';
import { dialects } from '../support/databases.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * The approval round trip as an end user and an agent live it, on a started gateway: a run the policy covers
 * answers approval_required, the user approves (or declines) on the hosted page in a real browser (Debian's
 * Chromium, headless), and the rerun is a hit carrying approval_id. Through REST, the v1 MCP SDK client (an
 * isError result with approval_url, then the same call again) and the v2 one on 2026-07-28 (a URL
 * elicitation the client hands its user; its retry runs).
 */
const SCREENSHOTS = process.env.HOSTED_SCREENSHOTS ?? '/tmp';
const ORDER = 'rt-paid.order.place';
const ORDER_PATH = '/accounts/A1/orders';

async function freePort(): Promise<number> {
  const probe = listen();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: any;
}

for (const dialect of dialects) {
  describe(`approvals in Chromium, through REST and both MCP client generations [${dialect}]`, function () {
    this.timeout(60000);
    let h: Harness;
    let fakes: RunFakes;
    let server: Server;
    let browser: Browser;
    let gatewayUrl: string;
    const closing: Array<() => Promise<void>> = [];

    before(async function () {
      this.timeout(90000);
      const port = await freePort();
      gatewayUrl = `http://127.0.0.1:${port}`;
      fakes = await startRunFakes();
      h = await createHarness(dialect, { config: fakes.config({ server: { public_url: gatewayUrl } }) });
      await renameOrganization(h.gateway, 'default', 'Acme Trading');
      expect((await h.request({ method: 'PUT', url: '/v1/approval-policy', payload: { kinds: ['action'] } })).statusCode).to.equal(200);
      server = await createServer(h.gateway, { host: '127.0.0.1', port });
      await server.start();
      browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
    });
    beforeEach(() => {
      fakes.reset();
      fakes.paid.on('POST', ORDER_PATH, { status: 201, json: { order: 'o-1' } });
    });
    after(async () => {
      for (const close of closing) await close();
      await browser?.close();
      await server?.stop();
      await h?.close();
      await fakes?.close();
    });

    async function newContext(mobile = false): Promise<BrowserContext> {
      const context = await browser.newContext(mobile ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1100, height: 800 } });
      // Nothing leaves loopback.
      await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()));
      return context;
    }

    /** The end user at the approval page: reads it, presses Approve or Decline, and sees what they decided. */
    async function decideInBrowser(url: string, decision: 'Approve' | 'Decline', options: { mobile?: boolean; shot?: string } = {}): Promise<Page> {
      const context = await newContext(options.mobile);
      closing.push(() => context.close());
      const page = await context.newPage();
      await page.goto(url);
      expect(await page.locator('h1').innerText()).to.equal('Approve this action?');
      if (options.shot && dialect === 'sqlite') await page.screenshot({ path: `${SCREENSHOTS}/hosted-${options.shot}.png`, fullPage: true });
      await page.getByRole('button', { name: decision }).click();
      await page.waitForSelector(`h1:text("You ${decision === 'Approve' ? 'approved' : 'declined'} this action")`);
      return page;
    }

    async function rest(headers: Record<string, string>, payload: object = { account: 'A1', symbol: 'ACME', quantity: 3 }) {
      return h.request({ method: 'POST', url: `/v1/tasks/${ORDER}/run`, payload, headers: { 'svc-fallback': 'platform', ...headers } });
    }

    it('REST: approval_required, approved in the browser, the rerun with svc-approval a hit carrying approval_id', async () => {
      const asked = await rest({ 'svc-principal': 'user:ada' });
      expect(asked.statusCode, asked.payload).to.equal(403);
      expect(asked.json).to.include({ code: 'approval_required' });
      expect(fakes.paid.requests).to.have.length(0);

      const page = await decideInBrowser(asked.json.approval_url, 'Approve', { shot: 'approval' });
      expect(await page.locator('main').innerText()).to.include('Acme Trading');

      const ran = await rest({ 'svc-principal': 'user:ada', 'svc-approval': asked.json.approval_id });
      expect(ran.statusCode, ran.payload).to.equal(200);
      expect(fakes.paid.requests).to.have.length(1);
      const call = await h.request({ method: 'GET', url: `/v1/calls/${ran.json.receipt.call_id}` });
      expect(call.json).to.include({ outcome: 'hit', approval_id: asked.json.approval_id, principal: 'user:ada' });
      const replay = await rest({ 'svc-principal': 'user:ada', 'svc-approval': asked.json.approval_id });
      expect(replay.json.code).to.equal('approval_expired');
      expect(fakes.paid.requests).to.have.length(1);
    });

    it('REST on a phone-sized screen: the page shows the run, the buttons fill the width, a decline stops the run', async () => {
      const asked = await rest({ 'svc-principal': 'user:phone' }, { account: 'A1', symbol: 'PHONE', quantity: 1 });
      const context = await newContext(true);
      closing.push(() => context.close());
      const page = await context.newPage();
      await page.goto(asked.json.approval_url);
      const text = await page.locator('main').innerText();
      expect(text).to.include('Acme Trading').and.include('Place an order').and.include('"symbol": "PHONE"').and.include('user:phone').and.include('$0.01');
      const approve = (await page.getByRole('button', { name: 'Approve' }).boundingBox())!;
      expect(approve.width).to.be.greaterThan(250);
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(390);
      if (dialect === 'sqlite') await page.screenshot({ path: `${SCREENSHOTS}/hosted-approval-mobile.png`, fullPage: true });
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.waitForSelector('h1:text("You declined this action")');
      const rerun = await rest({ 'svc-principal': 'user:phone', 'svc-approval': asked.json.approval_id }, { account: 'A1', symbol: 'PHONE', quantity: 1 });
      expect(rerun.statusCode).to.equal(403);
      expect(rerun.json.code).to.equal('approval_declined');
      expect(fakes.paid.requests).to.have.length(0);
    });

    async function tokenFor(principal: string): Promise<string> {
      const issued = await h.request({ method: 'POST', url: '/v1/tokens', payload: { principal } });
      expect(issued.statusCode).to.equal(201);
      return issued.json.token;
    }

    const orderArgs = { task_id: ORDER, input: { account: 'A1', symbol: 'ACME', quantity: 3 } };

    it('MCP, the v1 SDK client: an isError approval_required with approval_url; approved in the browser, the same call again runs', async () => {
      const client = new V1Client({ name: 'approval-agent', version: '1.0.0' });
      const headers = { authorization: `Bearer ${await tokenFor('user:mia')}`, 'svc-fallback': 'platform' };
      await client.connect(new V1Transport(new URL(`${gatewayUrl}/v1/mcp`), { requestInit: { headers } }));
      closing.push(() => client.close());
      const first = (await client.callTool({ name: 'run_task', arguments: orderArgs })) as ToolAnswer;
      expect(first.isError).to.equal(true);
      expect(first.structuredContent).to.include({ code: 'approval_required', status: 403 });
      expect(fakes.paid.requests).to.have.length(0);

      await decideInBrowser(first.structuredContent.approval_url, 'Approve');
      const ran = (await client.callTool({ name: 'run_task', arguments: orderArgs })) as ToolAnswer;
      expect(ran.isError, JSON.stringify(ran.structuredContent)).to.not.equal(true);
      expect(ran.structuredContent.output).to.deep.equal({ order: 'o-1' });
      const call = await h.request({ method: 'GET', url: `/v1/calls/${ran.structuredContent.receipt.call_id}` });
      expect(call.json).to.include({ approval_id: first.structuredContent.approval_id, principal: 'user:mia' });

      // The approval ran one call: the same call once more asks again.
      const again = (await client.callTool({ name: 'run_task', arguments: orderArgs })) as ToolAnswer;
      expect(again.structuredContent).to.include({ code: 'approval_required' });
      expect(again.structuredContent.approval_id).to.not.equal(first.structuredContent.approval_id);
      expect(fakes.paid.requests).to.have.length(1);
    });

    it('MCP, the v2 SDK client on 2026-07-28: a URL elicitation the user approves in the browser, and the retry runs', async () => {
      const links: string[] = [];
      const client = new V2Client(
        { name: 'approval-agent', version: '2.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { url: {} } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        if (request.params.mode !== 'url') return { action: 'decline' };
        links.push(request.params.url);
        await decideInBrowser(request.params.url, 'Approve');
        return { action: 'accept' };
      });
      const headers = { authorization: `Bearer ${await tokenFor('user:noa')}`, 'svc-fallback': 'platform' };
      await client.connect(new V2Transport(new URL(`${gatewayUrl}/v1/mcp`), { requestInit: { headers } }));
      closing.push(() => client.close());

      const ran = (await client.callTool({ name: 'run_task', arguments: orderArgs })) as ToolAnswer;
      expect(links).to.have.length(1);
      expect(links[0]).to.match(new RegExp(`^${gatewayUrl}/v1/hosted/approvals/apr_`));
      expect(ran.isError, JSON.stringify(ran.structuredContent)).to.not.equal(true);
      expect(ran.structuredContent.output).to.deep.equal({ order: 'o-1' });
      expect(fakes.paid.requests).to.have.length(1);
      const call = await h.request({ method: 'GET', url: `/v1/calls/${ran.structuredContent.receipt.call_id}` });
      expect(call.json.approval_id).to.equal(links[0].split('/').pop()!.split('.')[0]);

      // A user who declines at the page: the retry answers approval_declined, and nothing is sent.
      const declining = new V2Client(
        { name: 'approval-agent', version: '2.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { url: {} } } },
      );
      declining.setRequestHandler('elicitation/create', async (request) => {
        await decideInBrowser(request.params.mode === 'url' ? request.params.url : '', 'Decline');
        return { action: 'accept' };
      });
      const otherHeaders = { authorization: `Bearer ${await tokenFor('user:oli')}`, 'svc-fallback': 'platform' };
      await declining.connect(new V2Transport(new URL(`${gatewayUrl}/v1/mcp`), { requestInit: { headers: otherHeaders } }));
      closing.push(() => declining.close());
      const declined = (await declining.callTool({ name: 'run_task', arguments: orderArgs })) as ToolAnswer;
      expect(declined.isError).to.equal(true);
      expect(declined.structuredContent).to.include({ code: 'approval_declined' });
      expect(fakes.paid.requests).to.have.length(1);
    });
  });
}
