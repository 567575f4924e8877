import type { ConsentView } from '../domain/consent/flow.js';
import { html } from './html.js';
import { formatTime } from './format.js';
import { mark, renderPage, type HostedPage } from './layout.js';

/** The consent, recovery and done pages of a connect session. */

function heading(view: ConsentView) {
  return html`<div class="pair" aria-hidden="true">${mark(view.organizationName)}<span class="arrow">&rarr;</span>${mark(view.provider.name)}</div>`;
}

function scopeList(view: ConsentView) {
  if (!view.scopes.length) return html`<p class="muted">No particular permissions are requested beyond signing in.</p>`;
  return html`<ul class="scopes" aria-label="Permissions requested">${view.scopes.map((scope) => html`<li>${scope}</li>`)}</ul>`;
}

const authorizeOrigin = (view: ConsentView) => new URL(view.provider.auth.authorize_url).origin;

export function consentPage(view: ConsentView, secret: string): HostedPage {
  const { organizationName: org, provider } = view;
  return renderPage({
    title: `Connect ${provider.name} to ${org}`,
    formTargets: [authorizeOrigin(view)],
    body: html`
${heading(view)}
<h1>Connect your ${provider.name} account</h1>
<p><strong>${org}</strong> is asking for access to your ${provider.name} account so it can act for you.
You will sign in at ${provider.name} (<span class="small">${new URL(provider.auth.authorize_url).host}</span>), where you can approve or decline.</p>
<h2>Access requested</h2>
${scopeList(view)}
<form method="post" action="/v1/hosted/connect/${secret}">
<div class="actions"><button type="submit" class="primary">Continue to ${provider.name}</button></div>
</form>
<p class="muted small spaced">This link works once and expires ${formatTime(view.session.expires_at)}.</p>`,
  });
}

export function recoveryPage(view: ConsentView, kind: 'denied' | 'failed', retryable: boolean): HostedPage {
  const { organizationName: org, provider } = view;
  const title = kind === 'denied' ? 'Access was not granted' : 'Your account could not be connected';
  const explanation =
    kind === 'denied'
      ? html`You declined the request at ${provider.name}, so nothing was connected and ${org} cannot use your account.`
      : html`${provider.name} did not complete the sign-in, so nothing was connected. This is usually temporary.`;
  return renderPage({
    title,
    formTargets: [authorizeOrigin(view)],
    body: html`
<div class="icon warn" aria-hidden="true">!</div>
<h1>${title}</h1>
<p>${explanation}</p>
${
  retryable
    ? html`<p class="muted">If that was not what you meant, you can try again.</p>
<form method="post" action="/v1/hosted/connect/sessions/${view.session.id}/retry">
<div class="actions"><button type="submit" class="primary">Try again</button></div>
</form>`
    : html`<p class="notice warn">This link has expired. Ask the app that sent you here for a new one.</p>`
}`,
  });
}

export function donePage(view: ConsentView, accountLabel: string | null): HostedPage {
  const { organizationName: org, provider } = view;
  return renderPage({
    title: `${provider.name} connected`,
    body: html`
<div class="icon ok" aria-hidden="true">&#10003;</div>
<h1>Your ${provider.name} account is connected</h1>
<p>${org} can now use ${accountLabel ? html`<strong>${accountLabel}</strong> at ${provider.name}` : html`your ${provider.name} account`} with the access you approved.</p>
<p class="muted">You can close this window. To remove this access later, use the connections page that ${org} provides, or revoke it at ${provider.name}.</p>`,
  });
}
