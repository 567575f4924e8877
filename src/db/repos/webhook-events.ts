import type { Executor } from '../database.js';

export interface WebhookEventRow {
  id: string;
  organization_id: string;
  type: string;
  /** The event as delivered, JSON. */
  payload: string;
  created_at: number;
}

/**
 * Stores an event and one pending delivery for each live webhook of its organization; given the transaction
 * of the change the event is about, so both commit together or not at all.
 */
export async function insertEventWithDeliveries(db: Executor, event: WebhookEventRow, deliveryIdFor: () => string): Promise<void> {
  await db.execute('INSERT INTO webhook_events (id, organization_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5)', [
    event.id,
    event.organization_id,
    event.type,
    event.payload,
    event.created_at,
  ]);
  const hooks = await db.select<{ id: string }>('SELECT id FROM webhooks WHERE organization_id = $1 AND deleted_at IS NULL', [event.organization_id]);
  for (const hook of hooks) {
    await db.execute(
      `INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, state, attempts, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5, $5)`,
      [deliveryIdFor(), event.organization_id, hook.id, event.id, event.created_at],
    );
  }
}
