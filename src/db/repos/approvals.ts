import type { Executor } from '../database.js';
import { selectPage, type PageQuery } from '../pages.js';

export type ApprovalStatus = 'pending' | 'approved' | 'declined';

export interface ApprovalRow {
  id: string;
  organization_id: string;
  principal: string;
  task_id: string;
  input_sha256: string;
  routing_sha256: string;
  /** JSON text of the input as the page shows it. */
  shown_input: string;
  price_micros: number;
  /** The key or token whose run asked for it. */
  token_id: string | null;
  status: ApprovalStatus;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  used_at: number | null;
  used_key: string | null;
}

const COLUMNS =
  'id, organization_id, principal, task_id, input_sha256, routing_sha256, shown_input, price_micros, token_id, status, created_at, expires_at, decided_at, used_at, used_key';

export async function insertApproval(db: Executor, row: ApprovalRow): Promise<void> {
  await db.execute(`INSERT INTO approvals (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`, [
    row.id, row.organization_id, row.principal, row.task_id, row.input_sha256, row.routing_sha256, row.shown_input,
    row.price_micros, row.token_id, row.status, row.created_at, row.expires_at, row.decided_at, row.used_at, row.used_key,
  ]);
}

export async function findApproval(db: Executor, organizationId: string, id: string): Promise<ApprovalRow | null> {
  const [row] = await db.select<ApprovalRow>(`SELECT ${COLUMNS} FROM approvals WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
  return row ?? null;
}

/** An approval by id alone: what its page link names (the link's MAC vouches for the id). */
export async function findApprovalById(db: Executor, id: string): Promise<ApprovalRow | null> {
  const [row] = await db.select<ApprovalRow>(`SELECT ${COLUMNS} FROM approvals WHERE id = $1`, [id]);
  return row ?? null;
}

/** The newest unused, live approval asked for exactly this run (an MCP client's retry names none). */
export async function findLatestFor(
  db: Executor,
  binding: Pick<ApprovalRow, 'organization_id' | 'principal' | 'task_id' | 'input_sha256' | 'routing_sha256'>,
  now: number,
): Promise<ApprovalRow | null> {
  const [row] = await db.select<ApprovalRow>(
    `SELECT ${COLUMNS} FROM approvals
      WHERE organization_id = $1 AND principal = $2 AND task_id = $3 AND input_sha256 = $4 AND routing_sha256 = $5
        AND used_at IS NULL AND expires_at > $6
      ORDER BY id DESC LIMIT 1`,
    [binding.organization_id, binding.principal, binding.task_id, binding.input_sha256, binding.routing_sha256, now],
  );
  return row ?? null;
}

/** Records the user's decision on a pending, live approval; false when it was decided already or has expired. */
export async function decideApproval(db: Executor, id: string, status: 'approved' | 'declined', now: number): Promise<boolean> {
  const count = await db.execute(
    `UPDATE approvals SET status = $2, decided_at = $3 WHERE id = $1 AND status = 'pending' AND expires_at > $3`,
    [id, status, now],
  );
  return count > 0;
}

/** Uses an approved, unused, live approval, once: of two runs racing for it, one gets true. */
export async function useApproval(db: Executor, id: string, idempotencyKey: string | null, now: number): Promise<boolean> {
  const count = await db.execute(
    `UPDATE approvals SET used_at = $2, used_key = $3 WHERE id = $1 AND status = 'approved' AND used_at IS NULL AND expires_at > $2`,
    [id, now, idempotencyKey],
  );
  return count > 0;
}

export function pageApprovals(db: Executor, organizationId: string, page: PageQuery): Promise<ApprovalRow[]> {
  return selectPage<ApprovalRow>(db, 'approvals', [['organization_id = ?', organizationId]], page);
}
