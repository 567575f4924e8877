import { expect } from 'chai';
import { findCall } from '../../src/db/repos/calls.js';
import { renameOrganization } from '../../src/domain/organizations.js';
import { startRunFakes, PLATFORM_KEY } from '../fixtures/run-providers.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';
import { GATEWAY_URL, TestBrowser } from '../support/oauth-server.js';

const fakes = await startRunFakes();
after(() => fakes.close());

const ORDER = 'rt-paid.order.place';
const ORDER_PATH = '/accounts/A1/orders';
const order = (quantity = 3) => ({ account: 'A1', symbol: 'ACME', quantity });
const asAda = { 'svc-principal': 'user:ada', 'svc-fallback': 'platform' };

function run(h: Harness, task: string, payload: object, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload, headers });
}

function browserFor(h: Harness) {
  return new TestBrowser(GATEWAY_URL, (options) => h.server.inject(options));
}

/** Opens the approval page and presses one of its buttons, as the end user does. */
async function decide(h: Harness, url: string, decision: 'approve' | 'decline', browser = browserFor(h)) {
  const page = await browser.go(url);
  expect(page.status, page.body).to.equal(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1];
  const answer = await browser.go(url, { form: { csrf, decision }, headers: { origin: GATEWAY_URL } });
  expect(answer.status, answer.body).to.equal(303);
  return { page, after: await browser.go(`${GATEWAY_URL}${answer.location}`) };
}

async function asked(h: Harness, payload: object = order(), headers: Record<string, string> = asAda) {
  const body = problem(await run(h, ORDER, payload, headers), 403, 'approval_required');
  expect(body.approval_id).to.match(/^apr_[0-9a-z]{26}$/);
  expect(body.approval_url).to.match(new RegExp(`^${GATEWAY_URL}/v1/hosted/approvals/${body.approval_id}\\.[A-Za-z0-9_-]+$`));
  return body as { approval_id: string; approval_url: string; expires_at: string; call_id: string };
}

async function approved(h: Harness, payload: object = order(), headers: Record<string, string> = asAda) {
  const approval = await asked(h, payload, headers);
  await decide(h, approval.approval_url, 'approve');
  return approval;
}

async function status(h: Harness, id: string) {
  return (await h.gateway.db.select<{ status: string; used_at: number | null }>('SELECT status, used_at FROM approvals WHERE id = $1', [id]))[0];
}

eachDialect('approvals: the policy, the approval page and the rerun', (h) => {
  beforeEach(() => {
    fakes.reset();
    fakes.paid.on('POST', ORDER_PATH, { status: 201, json: { order: 'o-1' } });
  });

  describe('GET and PUT /v1/approval-policy', () => {
    it('is empty by default, replaced whole by PUT, for owners and admins only', async () => {
      expect((await h().request({ method: 'GET', url: '/v1/approval-policy' })).json).to.deep.equal({ kinds: [], tasks: [], over_usd: null });
      const put = await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: { tasks: ['rt-paid.order.*'], over_usd: 0.005 } });
      expect(put.statusCode, put.payload).to.equal(200);
      expect(put.json).to.deep.equal({ kinds: [], tasks: ['rt-paid.order.*'], over_usd: 0.005 });
      const admin = await h().keyWithRole('admin');
      expect((await h().request({ method: 'GET', url: '/v1/approval-policy', headers: { authorization: `Bearer ${admin}` } })).json.tasks).to.deep.equal(['rt-paid.order.*']);
      const member = await h().keyWithRole('member');
      problem(await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: {}, headers: { authorization: `Bearer ${member}` } }), 403, 'role_forbidden');
      problem(await h().request({ method: 'GET', url: '/v1/approval-policy', headers: { authorization: `Bearer ${member}` } }), 403, 'role_forbidden');
      const token = (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } })).json.token;
      problem(await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: {}, headers: { authorization: `Bearer ${token}` } }), 403, 'role_forbidden');
      expect((await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: {} })).json).to.deep.equal({ kinds: [], tasks: [], over_usd: null });
    });

    it('refuses an unknown kind, a pattern that is no task id pattern, a negative or over-precise price, and unknown members', async () => {
      for (const payload of [{ kinds: ['write'] }, { tasks: ['a b'] }, { tasks: [''] }, { over_usd: -1 }, { over_usd: 0.0000001 }, { extra: true }, { kinds: 'action' }]) {
        const body = problem(await h().request({ method: 'PUT', url: '/v1/approval-policy', payload }), 400, 'invalid_input');
        expect(body.invalid_params, JSON.stringify(payload)).to.have.length.greaterThan(0);
      }
    });
  });

  describe('a run the policy covers', () => {
    before(async () => {
      await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: { kinds: ['action'] } });
      await renameOrganization(h().gateway, 'default', 'Acme Trading');
    });

    it('answers 403 approval_required before anything goes upstream, and records a miss charged nothing', async () => {
      const approval = await asked(h());
      expect(Date.parse(approval.expires_at) - Date.now()).to.be.within(890_000, 900_000);
      expect(fakes.paid.requests).to.have.length(0);
      const call = (await findCall(h().gateway.db, h().organizationId, approval.call_id))!;
      expect(call).to.include({ outcome: 'miss', error_code: 'approval_required', approval_id: approval.approval_id, principal: 'user:ada' });
      expect(Number(call.charged_micros)).to.equal(0);
      expect((await status(h(), approval.approval_id)).status).to.equal('pending');
    });

    it('leaves runs as the organization, tasks the policy does not name, and prices under over_usd alone', async () => {
      expect((await run(h(), ORDER, order(), { 'svc-fallback': 'platform' })).statusCode).to.equal(200);
      fakes.paid.on('GET', '/quote/ACME', { json: { price: 1 } });
      expect((await run(h(), 'rt-paid.quote.get', { symbol: 'ACME' }, asAda)).statusCode).to.equal(200);
      await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: { kinds: ['action'], over_usd: 0.01 } });
      try {
        expect((await run(h(), ORDER, order(), asAda)).statusCode).to.equal(200);
      } finally {
        await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: { kinds: ['action'] } });
      }
    });

    it('shows the organization, the task, the input as it will be sent with credentials masked, the price and the principal', async () => {
      const approval = await asked(h(), { account: PLATFORM_KEY, symbol: '<b>ACME</b>', quantity: 3 });
      const page = await browserFor(h()).go(approval.approval_url);
      expect(page.status).to.equal(200);
      expect(page.headers['content-security-policy']).to.include("default-src 'none'").and.include("frame-ancestors 'none'");
      expect(page.headers['cache-control']).to.equal('no-store');
      expect(page.headers['set-cookie']).to.match(/^gw_approval=[A-Za-z0-9_-]{43};.*HttpOnly/);
      expect(page.body).to.include('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(page.body).to.include('<strong>Acme Trading</strong> wants to run <strong>Place an order</strong>');
      expect(page.body).to.include('Places an order for a symbol.');
      expect(page.body).to.include('user:ada').and.include('$0.01');
      expect(page.body).to.include('&quot;symbol&quot;: &quot;&lt;b&gt;ACME&lt;/b&gt;&quot;').and.include('&quot;quantity&quot;: 3');
      expect(page.body).to.include('[redacted]').and.not.include(PLATFORM_KEY);
      expect(page.body).to.not.match(/<script/i);
      expect((await status(h(), approval.approval_id)).status, 'showing the page decides nothing').to.equal('pending');
    });

    it('runs once when approved: the rerun with svc-approval is a hit carrying approval_id, a replay is approval_expired', async () => {
      const approval = await asked(h());
      const { after } = await decide(h(), approval.approval_url, 'approve');
      expect(after.body).to.include('You approved this action');
      const [event] = await h().gateway.db.select<{ payload: string }>("SELECT payload FROM webhook_events WHERE type = 'approval.decided' ORDER BY id DESC LIMIT 1");
      expect(JSON.parse(event.payload).data).to.deep.equal({ approval_id: approval.approval_id, principal: 'user:ada', task_id: ORDER, decision: 'approved' });

      const ran = await run(h(), ORDER, order(), { ...asAda, 'svc-approval': approval.approval_id });
      expect(ran.statusCode, ran.payload).to.equal(200);
      expect(fakes.paid.requests).to.have.length(1);
      const call = await h().request({ method: 'GET', url: `/v1/calls/${ran.json.receipt.call_id}` });
      expect(call.json).to.include({ outcome: 'hit', approval_id: approval.approval_id });

      problem(await run(h(), ORDER, order(), { ...asAda, 'svc-approval': approval.approval_id }), 403, 'approval_expired');
      expect(fakes.paid.requests, 'a replay sends nothing').to.have.length(1);
      const listed = await h().request({ method: 'GET', url: '/v1/approvals' });
      expect(listed.json.approvals.find((a: { id: string }) => a.id === approval.approval_id)).to.include({ status: 'approved', task_id: ORDER, principal: 'user:ada', price_usd: 0.01 });
    });

    it('is 409 approval_mismatch for another input, task, principal or routing, and still runs the approved run after', async () => {
      await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: { kinds: ['action'], tasks: ['rt-paid.*'] } });
      try {
        const approval = await approved(h());
        const using = { 'svc-approval': approval.approval_id };
        const mismatches: Array<[string, object, Record<string, string>]> = [
          [ORDER, order(300), { ...asAda, ...using }],
          [ORDER, { ...order(), symbol: 'ACMF' }, { ...asAda, ...using }],
          ['rt-paid.quote.get', { symbol: 'ACME' }, { ...asAda, ...using }],
          [ORDER, order(), { ...asAda, 'svc-principal': 'user:bob', ...using }],
          [ORDER, order(), { ...asAda, 'svc-max-cost': '1', ...using }],
        ];
        for (const [task, payload, headers] of mismatches) {
          const body = problem(await run(h(), task, payload, headers), 409, 'approval_mismatch');
          expect(body.approval_id).to.equal(approval.approval_id);
        }
        expect(fakes.paid.requests).to.have.length(0);
        const ran = await run(h(), ORDER, { quantity: 3, symbol: 'ACME', account: 'A1' }, { ...asAda, ...using });
        expect(ran.statusCode, 'the same input in another member order is the same input').to.equal(200);
      } finally {
        await h().request({ method: 'PUT', url: '/v1/approval-policy', payload: { kinds: ['action'] } });
      }
    });

    it('is 403 approval_declined once declined, approval_required while undecided, approval_expired past its life', async () => {
      const declined = await asked(h());
      const { after } = await decide(h(), declined.approval_url, 'decline');
      expect(after.body).to.include('You declined this action');
      problem(await run(h(), ORDER, order(), { ...asAda, 'svc-approval': declined.approval_id }), 403, 'approval_declined');

      const undecided = await asked(h());
      const again = problem(await run(h(), ORDER, order(), { ...asAda, 'svc-approval': undecided.approval_id }), 403, 'approval_required');
      expect(again.approval_url).to.equal(undecided.approval_url);

      const late = await approved(h());
      await h().gateway.db.execute('UPDATE approvals SET expires_at = $2 WHERE id = $1', [late.approval_id, Date.now() - 1]);
      problem(await run(h(), ORDER, order(), { ...asAda, 'svc-approval': late.approval_id }), 403, 'approval_expired');
      const lateDecision = await asked(h());
      await h().gateway.db.execute('UPDATE approvals SET expires_at = $2 WHERE id = $1', [lateDecision.approval_id, Date.now() - 1]);
      const page = await browserFor(h()).go(lateDecision.approval_url);
      expect(page.body).to.include('This request has expired').and.not.include('name="decision"');
      expect(fakes.paid.requests).to.have.length(0);
      problem(await run(h(), ORDER, order(), { ...asAda, 'svc-approval': 'apr_00000000000000000000000000' }), 409, 'approval_mismatch');
      problem(await run(h(), ORDER, order(), { ...asAda, 'svc-approval': 'not-an-approval' }), 400, 'invalid_input');
    });

    it('cannot be decided by an API caller: no API route, no bearer credential, no post without the page in this browser', async () => {
      const approval = await asked(h());
      const token = (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } })).json.token;
      for (const url of [`/v1/approvals/${approval.approval_id}`, `/v1/approvals/${approval.approval_id}/approve`]) {
        for (const method of ['POST', 'PUT', 'PATCH']) {
          const res = await h().request({ method, url, payload: { decision: 'approve' }, headers: { authorization: `Bearer ${token}` } });
          expect(res.statusCode, `${method} ${url}`).to.be.oneOf([404, 405]);
        }
      }
      const path = approval.approval_url.slice(GATEWAY_URL.length);
      const browser = browserFor(h());
      const page = await browser.go(approval.approval_url);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1];
      const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
      const cookie = `gw_approval=${browser.cookie(approval.approval_url, 'gw_approval')}`;
      const attempts: Array<[string, Record<string, string>, string]> = [
        ['with the token as bearer', { authorization: `Bearer ${token}`, cookie }, form({ csrf, decision: 'approve' })],
        ['with the owner key as bearer', { authorization: `Bearer ${h().ownerKey}`, cookie }, form({ csrf, decision: 'approve' })],
        ['without the page cookie', {}, form({ csrf, decision: 'approve' })],
        ['without the form token', { cookie }, form({ decision: 'approve' })],
        ['from another site', { cookie, origin: 'https://evil.example' }, form({ csrf, decision: 'approve' })],
        ['with the id for a link', { cookie }, form({ csrf, decision: 'approve' })],
      ];
      for (const [what, headers, payload] of attempts) {
        const url = what === 'with the id for a link' ? `/v1/hosted/approvals/${approval.approval_id}` : path;
        const res = await h().server.inject({ method: 'POST', url, payload, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });
        expect(res.statusCode, what).to.be.oneOf([400, 401, 403]);
        expect(String(res.headers['content-type']), what).to.match(/^text\/html/);
      }
      expect((await status(h(), approval.approval_id)).status).to.equal('pending');
      problem(await run(h(), ORDER, order(), { ...asAda, 'svc-approval': approval.approval_id }), 403, 'approval_required');
    });

    it('lets idempotency answer a repeat under the key that used the approval, and decides only once', async () => {
      const approval = await approved(h());
      const headers = { ...asAda, 'svc-approval': approval.approval_id, 'idempotency-key': `order-${approval.approval_id}` };
      const first = await run(h(), ORDER, order(), headers);
      expect(first.statusCode, first.payload).to.equal(200);
      const repeat = await run(h(), ORDER, order(), headers);
      expect(repeat.statusCode).to.equal(200);
      expect(repeat.json.receipt.call_id).to.equal(first.json.receipt.call_id);
      expect(fakes.paid.requests).to.have.length(1);
      problem(await run(h(), ORDER, order(), { ...headers, 'idempotency-key': 'another-key' }), 403, 'approval_expired');

      const browser = browserFor(h());
      const page = await browser.go(approval.approval_url);
      expect(page.body, 'a decided approval has no buttons').to.not.include('name="decision"');
    });
  });
}, { config: fakes.config() });
