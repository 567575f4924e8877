import type { Connection } from '../domain/connections/present.js';
import { html } from './html.js';
import { formatTime } from './format.js';
import { mark, renderPage, type HostedPage } from './layout.js';

const STATUS_LABEL: Record<Connection['status'], string> = { active: 'Active', needs_reauth: 'Needs sign-in', revoked: 'Revoked' };

export interface ConnectionsPageContent {
  organizationName: string;
  principal: string;
  connections: Array<Connection & { providerName: string }>;
  /** The page's own path: its revoke forms post below it. */
  path: string;
  formToken: string;
  expiresAt: number;
  /** A connection just revoked from this page, for the confirmation notice. */
  revoked?: Connection & { providerName: string };
}

function row(connection: ConnectionsPageContent['connections'][number], content: ConnectionsPageContent) {
  const account = connection.label ?? connection.account_id ?? 'Account';
  return html`<li>
<div class="conn">
<strong>${connection.providerName}<span class="badge ${connection.status}">${STATUS_LABEL[connection.status]}</span></strong>
<dl>
<dt>Account</dt><dd>${account}</dd>
<dt>Access</dt><dd>${connection.scopes.length ? connection.scopes.join(', ') : 'Basic'}</dd>
<dt>Connected</dt><dd>${formatTime(connection.created_at)}</dd>
${connection.status === 'revoked' ? html`<dt>Revoked</dt><dd>${formatTime(connection.updated_at)}</dd>` : ''}
</dl>
</div>
${
  connection.status === 'revoked'
    ? ''
    : html`<form method="post" action="${content.path}/revoke">
<input type="hidden" name="csrf" value="${content.formToken}">
<input type="hidden" name="connection_id" value="${connection.id}">
<button type="submit" class="danger" aria-label="Revoke ${connection.providerName} account ${account}">Revoke</button>
</form>`
}
</li>`;
}

export function connectionsPage(content: ConnectionsPageContent): HostedPage {
  const { organizationName: org } = content;
  return renderPage({
    title: `Your connected accounts - ${org}`,
    wide: true,
    footer: `This page link is private to you and expires ${formatTime(content.expiresAt)}.`,
    body: html`
<div class="org">${mark(org)}<span>${org}</span></div>
<h1>Your connected accounts</h1>
<p class="muted">Accounts you have connected to ${org}. Revoking one stops ${org} from using it right away; past activity stays on record.</p>
${
  content.revoked
    ? html`<p class="notice ok" role="status">Revoked ${content.revoked.providerName} account ${content.revoked.label ?? content.revoked.account_id ?? ''}.</p>`
    : ''
}
${
  content.connections.length
    ? html`<ul class="connections">${content.connections.map((connection) => row(connection, content))}</ul>`
    : html`<p class="empty">You have no connected accounts.</p>`
}`,
  });
}
