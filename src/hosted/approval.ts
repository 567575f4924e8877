import type { ApprovalView } from '../domain/approvals/approvals.js';
import { html } from './html.js';
import { formatTime } from './format.js';
import { mark, renderPage, type HostedPage } from './layout.js';

/** The approval page: the run exactly as it will be made, and the user's two answers. */

const price = (usd: number) => (usd === 0 ? 'Free' : `$${usd.toFixed(6).replace(/0{1,4}$/, '')}`);

function facts(view: ApprovalView) {
  const { approval } = view;
  return html`<dl class="facts">
<dt>Task</dt><dd>${view.task.title} <span class="small muted">(${view.task.id})</span></dd>
<dt>For</dt><dd>${approval.principal}</dd>
<dt>Price</dt><dd>${price(Number(approval.price_micros) / 1_000_000)}</dd>
</dl>`;
}

export interface ApprovalPageForm {
  /** The page's own path: the form posts back to it. */
  path: string;
  formToken: string;
}

export function approvalPage(view: ApprovalView, form: ApprovalPageForm): HostedPage {
  const { organizationName: org, approval } = view;
  if (approval.status !== 'pending' || view.expired) return decidedPage(view);
  return renderPage({
    title: `Approve ${view.task.title} - ${org}`,
    footer: 'Nothing is sent until you approve. An approval runs this one call, once.',
    body: html`
<div class="org">${mark(org)}<span>${org}</span></div>
<h1>Approve this action?</h1>
<p><strong>${org}</strong> wants to run <strong>${view.task.title}</strong> for you.</p>
${view.task.description ? html`<p class="muted">${view.task.description}</p>` : ''}
${facts(view)}
<h2>What will be sent</h2>
<pre class="input" aria-label="Input as it will be sent">${view.input}</pre>
<form method="post" action="${form.path}">
<input type="hidden" name="csrf" value="${form.formToken}">
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">Approve</button>
<button type="submit" name="decision" value="decline" class="secondary">Decline</button>
</div>
</form>
<p class="muted small spaced">This request expires ${formatTime(Number(approval.expires_at))}.</p>`,
  });
}

/** What the page shows once the run is decided, used or expired: the link does nothing more. */
function decidedPage(view: ApprovalView): HostedPage {
  const { organizationName: org, approval } = view;
  const [icon, title, message] =
    approval.status === 'approved'
      ? ['ok', 'You approved this action', approval.used_at === null ? html`${org} can now run it, once.` : html`${org} has run it. This approval cannot be used again.`]
      : approval.status === 'declined'
        ? ['bad', 'You declined this action', html`Nothing was sent. ${org} cannot run it with this request.`]
        : ['warn', 'This request has expired', html`Nothing was sent. If you still want it done, ask ${org} again.`];
  return renderPage({
    title,
    body: html`
<div class="org">${mark(org)}<span>${org}</span></div>
<div class="icon ${icon}" aria-hidden="true">${icon === 'ok' ? '\u2713' : '!'}</div>
<h1>${title}</h1>
<p>${message}</p>
${facts(view)}
<p class="muted small spaced">You can close this window.</p>`,
  });
}
