import type { Executor } from '../../db/database.js';
import { insertEventWithDeliveries } from '../../db/repos/webhook-events.js';
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

/** `approval.decided`: the end user approved or declined a run at the approval page (docs/approvals.md). */
export interface ApprovalDecided {
  approval_id: string;
  principal: string;
  task_id: string;
  decision: 'approved' | 'declined';
}

async function emitEvent(db: Executor, organizationId: string, type: string, data: object): Promise<string> {
  const now = Date.now();
  const eventId = newId('evt', now);
  const payload = JSON.stringify({ id: eventId, type, created_at: isoTime(now), data });
  await insertEventWithDeliveries(db, { id: eventId, organization_id: organizationId, type, payload, created_at: now }, () => newId('dlv', now));
  return eventId;
}

/**
 * Records a connection event and one pending delivery per registered webhook, inside the caller's
 * transaction, so the change and its notification commit together or not at all.
 * `connection` is the public Connection record, exactly as the API shows it.
 */
export function emitConnectionEvent(db: Executor, organizationId: string, type: ConnectionEvent, connection: object): Promise<string> {
  return emitEvent(db, organizationId, type, { connection });
}

/** Records `approval.decided` the same way, inside the transaction that records the decision. */
export function emitApprovalDecided(db: Executor, organizationId: string, decided: ApprovalDecided): Promise<string> {
  return emitEvent(db, organizationId, 'approval.decided', decided);
}
