import { fromJsonText, toJsonText } from '../codecs.js';
import type { Executor } from '../database.js';

/** One organization's OAuth client at one provider; client_secret is keyring ciphertext. */
export interface OAuthAppRow {
  organization_id: string;
  provider: string;
  client_id: string;
  client_secret: string;
  scopes: string[];
  created_at: number;
  updated_at: number;
}

/** Scopes are JSON text at rest. */
type StoredOAuthApp = Omit<OAuthAppRow, 'scopes'> & { scopes: string };

const decode = (stored: StoredOAuthApp): OAuthAppRow => ({ ...stored, scopes: fromJsonText(stored.scopes) });

export async function findOAuthAppRow(db: Executor, organizationId: string, provider: string): Promise<OAuthAppRow | null> {
  const [row] = await db.select<StoredOAuthApp>('SELECT * FROM oauth_apps WHERE organization_id = $1 AND provider = $2', [organizationId, provider]);
  return row ? decode(row) : null;
}

/** Creates or replaces the app in one statement; a replacement keeps the original created_at. */
export async function upsertOAuthAppRow(db: Executor, row: OAuthAppRow): Promise<OAuthAppRow> {
  const rows = await db.select<StoredOAuthApp>(
    `INSERT INTO oauth_apps (organization_id, provider, client_id, client_secret, scopes, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (organization_id, provider) DO UPDATE
       SET client_id = excluded.client_id, client_secret = excluded.client_secret, scopes = excluded.scopes,
           updated_at = excluded.updated_at
     RETURNING *`,
    [row.organization_id, row.provider, row.client_id, row.client_secret, toJsonText(row.scopes), row.created_at],
  );
  return decode(rows[0]);
}

export async function deleteOAuthAppRow(db: Executor, organizationId: string, provider: string): Promise<boolean> {
  return (await db.execute('DELETE FROM oauth_apps WHERE organization_id = $1 AND provider = $2', [organizationId, provider])) > 0;
}
