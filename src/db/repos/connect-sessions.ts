import { fromJsonText, toJsonText } from '../codecs.js';
import type { Executor } from '../database.js';
import { selectPage, type Condition, type PageQuery } from '../pages.js';

/** A connect_sessions row; `code_verifier` is encrypted, hashes are SHA-256 hex. */
export interface ConnectSessionRow {
  id: string;
  organization_id: string;
  principal: string;
  provider: string;
  scopes: string[];
  redirect_uri: string | null;
  secret_hash: string;
  status: 'pending' | 'completed';
  browser_hash: string | null;
  oauth_state_hash: string | null;
  code_verifier: string | null;
  connection_id: string | null;
  last_error: string | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

/** Scopes are JSON text at rest. */
type StoredConnectSession = Omit<ConnectSessionRow, 'scopes'> & { scopes: string };

const decode = (stored: StoredConnectSession): ConnectSessionRow => ({ ...stored, scopes: fromJsonText(stored.scopes) });

export async function insertConnectSession(
  db: Executor,
  row: Pick<ConnectSessionRow, 'id' | 'organization_id' | 'principal' | 'provider' | 'scopes' | 'redirect_uri' | 'secret_hash' | 'expires_at' | 'created_at'>,
): Promise<void> {
  await db.execute(
    `INSERT INTO connect_sessions (id, organization_id, principal, provider, scopes, redirect_uri, secret_hash, status, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $9)`,
    [row.id, row.organization_id, row.principal, row.provider, toJsonText(row.scopes), row.redirect_uri, row.secret_hash, row.expires_at, row.created_at],
  );
}

async function findOne(db: Executor, where: string, bind: unknown[]): Promise<ConnectSessionRow | null> {
  const [row] = await db.select<StoredConnectSession>(`SELECT * FROM connect_sessions WHERE ${where}`, bind);
  return row ? decode(row) : null;
}

export function findConnectSession(db: Executor, organizationId: string, id: string): Promise<ConnectSessionRow | null> {
  return findOne(db, 'organization_id = $1 AND id = $2', [organizationId, id]);
}

export function findConnectSessionBySecretHash(db: Executor, secretHash: string): Promise<ConnectSessionRow | null> {
  return findOne(db, 'secret_hash = $1', [secretHash]);
}

export function findConnectSessionByStateHash(db: Executor, stateHash: string): Promise<ConnectSessionRow | null> {
  return findOne(db, 'oauth_state_hash = $1', [stateHash]);
}

export function findConnectSessionById(db: Executor, id: string): Promise<ConnectSessionRow | null> {
  return findOne(db, 'id = $1', [id]);
}

export type ConnectSessionStatusFilter = 'pending' | 'completed' | 'expired';

/** Newest first; `expired` is a pending session past its expiry, `pending` one still before it. */
export async function pageConnectSessions(
  db: Executor,
  organizationId: string,
  filters: { principal?: string; status?: ConnectSessionStatusFilter },
  now: number,
  page: PageQuery,
): Promise<ConnectSessionRow[]> {
  const conditions: Condition[] = [['organization_id = ?', organizationId]];
  if (filters.principal !== undefined) conditions.push(['principal = ?', filters.principal]);
  if (filters.status === 'completed') conditions.push(["status = 'completed'"]);
  if (filters.status === 'pending') conditions.push(["status = 'pending'"], ['expires_at > ?', now]);
  if (filters.status === 'expired') conditions.push(["status = 'pending'"], ['expires_at <= ?', now]);
  return (await selectPage<StoredConnectSession>(db, 'connect_sessions', conditions, page)).map(decode);
}

/** Binds a pending, unexpired session to a browser and to a new authorization attempt (state and verifier). */
export async function bindConnectSession(
  db: Executor,
  id: string,
  attempt: { browser_hash: string; oauth_state_hash: string; code_verifier: string },
  now: number,
): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE connect_sessions SET browser_hash = $1, oauth_state_hash = $2, code_verifier = $3, last_error = NULL, updated_at = $4
      WHERE id = $5 AND status = 'pending' AND expires_at > $4`,
    [attempt.browser_hash, attempt.oauth_state_hash, attempt.code_verifier, now, id],
  );
  return changed === 1;
}

/**
 * Takes the authorization attempt for one callback: only the request that clears the state goes on, so
 * a replayed or concurrent callback with the same state finds nothing.
 */
export async function claimConnectAttempt(db: Executor, id: string, stateHash: string, now: number): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE connect_sessions SET oauth_state_hash = NULL, code_verifier = NULL, updated_at = $1
      WHERE id = $2 AND oauth_state_hash = $3 AND status = 'pending'`,
    [now, id, stateHash],
  );
  return changed === 1;
}

export async function recordConnectFailure(db: Executor, id: string, reason: string, now: number): Promise<void> {
  await db.execute('UPDATE connect_sessions SET last_error = $1, updated_at = $2 WHERE id = $3', [reason, now, id]);
}

/** Uses the session up; false when something else completed it first. */
export async function completeConnectSession(db: Executor, id: string, connectionId: string, now: number): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE connect_sessions SET status = 'completed', connection_id = $1, last_error = NULL, updated_at = $2
      WHERE id = $3 AND status = 'pending'`,
    [connectionId, now, id],
  );
  return changed === 1;
}

/** A principal's pending sessions to a provider without a redirect_uri that are open until at least `openUntil`, newest first. */
export async function openConnectSessionsFor(db: Executor, organizationId: string, principal: string, provider: string, openUntil: number): Promise<ConnectSessionRow[]> {
  const rows = await db.select<StoredConnectSession>(
    `SELECT * FROM connect_sessions
      WHERE organization_id = $1 AND principal = $2 AND provider = $3 AND status = 'pending' AND redirect_uri IS NULL AND expires_at >= $4
      ORDER BY id DESC`,
    [organizationId, principal, provider, openUntil],
  );
  return rows.map(decode);
}

/** Deletes sessions completed, or expired while pending, before `endedBefore`; returns how many. */
export function deleteConnectSessionsEndedBefore(db: Executor, endedBefore: number): Promise<number> {
  return db.execute(
    `DELETE FROM connect_sessions WHERE (status = 'completed' AND updated_at < $1) OR (status = 'pending' AND expires_at < $1)`,
    [endedBefore],
  );
}
