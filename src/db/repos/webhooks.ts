import type { Database, Executor } from '../database.js';

export interface WebhookRow {
  id: string;
  organization_id: string;
  url: string;
  /** The signing secret, encrypted with the gateway keyring. */
  secret: string;
  created_at: number;
  deleted_at: number | null;
}

export type WebhookSummaryRow = Pick<WebhookRow, 'id' | 'url' | 'created_at'>;

/**
 * Inserts a webhook unless the organization already has `cap` live ones; false when it has. The count
 * and the insert share a transaction; on Postgres the organization row is locked so two concurrent
 * registrations cannot both pass the count (SQLite transactions here already hold the write lock).
 */
export async function insertWebhookWithinCap(db: Database, row: Omit<WebhookRow, 'deleted_at'>, cap: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (tx.dialect === 'postgres') {
      await tx.select('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [row.organization_id]);
    }
    const [{ live }] = await tx.select<{ live: number | string }>(
      'SELECT COUNT(*) AS live FROM webhooks WHERE organization_id = $1 AND deleted_at IS NULL',
      [row.organization_id],
    );
    if (Number(live) >= cap) return false;
    await tx.execute(
      'INSERT INTO webhooks (id, organization_id, url, secret, created_at) VALUES ($1, $2, $3, $4, $5)',
      [row.id, row.organization_id, row.url, row.secret, row.created_at],
    );
    return true;
  });
}

/** Live webhooks, newest first; bounded by the per-organization cap. */
export async function listLiveWebhooks(db: Executor, organizationId: string): Promise<WebhookSummaryRow[]> {
  return db.select<WebhookSummaryRow>(
    'SELECT id, url, created_at FROM webhooks WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY id DESC',
    [organizationId],
  );
}

export async function findLiveWebhook(db: Executor, organizationId: string, id: string): Promise<WebhookSummaryRow | null> {
  const rows = await db.select<WebhookSummaryRow>(
    'SELECT id, url, created_at FROM webhooks WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL',
    [organizationId, id],
  );
  return rows[0] ?? null;
}

/**
 * Marks a live webhook deleted and, in the same transaction, ends its pending deliveries as failed so
 * no worker sends them. Returns the webhook, or null when there was no live one with that id.
 */
export async function deleteWebhookRow(db: Database, organizationId: string, id: string, now: number): Promise<WebhookSummaryRow | null> {
  return db.transaction(async (tx) => {
    const rows = await tx.select<WebhookSummaryRow>(
      'SELECT id, url, created_at FROM webhooks WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL',
      [organizationId, id],
    );
    if (!rows[0]) return null;
    const changed = await tx.execute(
      'UPDATE webhooks SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL',
      [now, id],
    );
    if (changed === 0) return null;
    await tx.execute(
      `UPDATE webhook_deliveries
          SET state = 'failed', last_error = 'webhook deleted', locked_until = NULL, lease_token = NULL, updated_at = $1
        WHERE webhook_id = $2 AND state = 'pending'`,
      [now, id],
    );
    return rows[0];
  });
}
