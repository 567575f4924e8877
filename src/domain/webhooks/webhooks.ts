import { deleteWebhookRow, findLiveWebhook, insertWebhookWithinCap, listLiveWebhooks, type WebhookSummaryRow } from '../../db/repos/webhooks.js';
import { listRecentDeliveries, type DeliveryListRow } from '../../db/repos/webhook-deliveries.js';
import { GatewayError, invalidInput } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { newId } from '../ids.js';
import { DELIVERIES_SHOWN } from './limits.js';
import { newSigningSecret } from './signing.js';
import { InputRefused, TargetRefused } from '../../providers/errors.js';
import { checkTarget } from '../../providers/targets.js';
import { isoTime } from '../time.js';

/** The Webhook record. */
export interface Webhook {
  id: string;
  url: string;
  created_at: string;
}

/** The WebhookCreated record: the only time the signing secret is shown. */
export interface WebhookCreated extends Webhook {
  secret: string;
}

/** The WebhookDelivery record. */
export interface WebhookDelivery {
  id: string;
  event_id: string;
  event: string;
  state: DeliveryListRow['state'];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}


function presentWebhook(row: WebhookSummaryRow): Webhook {
  return { id: row.id, url: row.url, created_at: isoTime(row.created_at) };
}

function presentDelivery(row: DeliveryListRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event: row.event,
    state: row.state,
    attempts: Number(row.attempts),
    last_status: row.last_status === null ? null : Number(row.last_status),
    last_error: row.last_error,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}

/**
 * Registers a webhook after checking its target (422 webhook_target_refused) and the organization's
 * cap (409 webhook_limit_reached). The secret is stored encrypted and returned only here.
 */
export async function createWebhook(gateway: Pick<Gateway, 'config' | 'db' | 'keyring'>, organizationId: string, rawUrl: string): Promise<WebhookCreated> {
  const { webhooks } = gateway.config;
  const url = await checkTarget(rawUrl, webhooks.allow_private_targets).catch(async (error: unknown) => {
    if (error instanceof InputRefused) throw invalidInput(error.message, error.problems);
    if (!(error instanceof TargetRefused)) throw error;
    // A local receiver (plain http, loopback, a private address) is what the development switch is for: say so.
    const allowedBySwitch = !webhooks.allow_private_targets && (await checkTarget(rawUrl, true).then(() => true, () => false));
    const hint = allowedBySwitch ? ' (for local development, webhooks.allow_private_targets accepts plain http and private addresses)' : '';
    throw new GatewayError('webhook_target_refused', `webhook target refused: ${error.message}${hint}`);
  });
  const now = Date.now();
  const secret = newSigningSecret();
  const row = { id: newId('wh', now), organization_id: organizationId, url, secret: gateway.keyring.encrypt(secret), created_at: now };
  if (!(await insertWebhookWithinCap(gateway.db, row, webhooks.max_per_org))) {
    throw new GatewayError(
      'webhook_limit_reached',
      `this organization already has ${webhooks.max_per_org} webhooks, the most allowed; delete one first`,
    );
  }
  return { ...presentWebhook(row), secret };
}

export async function listWebhooks(gateway: Pick<Gateway, 'db'>, organizationId: string): Promise<Webhook[]> {
  return (await listLiveWebhooks(gateway.db, organizationId)).map(presentWebhook);
}

function notFound(id: string): GatewayError {
  return new GatewayError('webhook_not_found', `no webhook ${id} in this organization`);
}

/** Deletes a webhook; its pending deliveries end as failed and are never sent. */
export async function deleteWebhook(gateway: Pick<Gateway, 'db'>, organizationId: string, id: string): Promise<Webhook> {
  const row = await deleteWebhookRow(gateway.db, organizationId, id, Date.now());
  if (!row) throw notFound(id);
  return presentWebhook(row);
}

/** The webhook's most recent deliveries (at most DELIVERIES_SHOWN), newest first. */
export async function listDeliveries(gateway: Pick<Gateway, 'db'>, organizationId: string, webhookId: string): Promise<WebhookDelivery[]> {
  if (!(await findLiveWebhook(gateway.db, organizationId, webhookId))) throw notFound(webhookId);
  return (await listRecentDeliveries(gateway.db, webhookId, DELIVERIES_SHOWN)).map(presentDelivery);
}
