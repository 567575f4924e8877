import type { Transaction } from '../../db/database.js';
import type { Database } from '../../db/database.js';
import { newId } from '../ids.js';
import { isoTime } from '../time.js';

export const connectionEvents = [
  'connection.created',
  'connection.needs_reauth',
  'connection.revoked',
  'connection.restored',
  'connection.expiring',
] as const;
export type ConnectionEvent = (typeof connectionEvents)[number];

/**
 * Records a connection event and one pending delivery per registered webhook, inside the caller's
 * transaction, so the change and its notification commit together or not at all.
 * `connection` is the public Connection record, exactly as the API shows it.
 */
export async function emitConnectionEvent(
  db: Database,
  transaction: Transaction | undefined,
  organizationId: string,
  type: ConnectionEvent,
  connection: object,
): Promise<string> {
  const now = Date.now();
  const eventId = newId('evt', now);
  const payload = JSON.stringify({ id: eventId, type, created_at: isoTime(now), data: { connection } });
  await db.execute(
    'INSERT INTO webhook_events (id, organization_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5)',
    [eventId, organizationId, type, payload, now],
    transaction,
  );
  const hooks = await db.select<{ id: string }>(
    'SELECT id FROM webhooks WHERE organization_id = $1 AND deleted_at IS NULL',
    [organizationId],
    transaction,
  );
  for (const hook of hooks) {
    await db.execute(
      `INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, state, attempts, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5, $5)`,
      [newId('dlv', now), organizationId, hook.id, eventId, now],
      transaction,
    );
  }
  return eventId;
}
