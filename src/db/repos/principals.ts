import type { Executor, Statement } from '../database.js';
import { whereClause, type Condition, type PageQuery } from '../pages.js';

/**
 * One statement on both dialects: inserts the principal on first use, else moves last_seen_at forward
 * (the WHERE keeps an out-of-order older timestamp from moving it back, and skips a useless write).
 * Written only where `condition` (SQL) holds; binds from `$first` on.
 */
export function principalSeenStatement(organizationId: string, principal: string, now: number, condition = 'TRUE', first = 1): Statement {
  return {
    sql: `INSERT INTO principals (organization_id, principal, first_seen_at, last_seen_at) SELECT $${first}, $${first + 1}, $${first + 2}, $${first + 2} WHERE ${condition}
     ON CONFLICT (organization_id, principal)
     DO UPDATE SET last_seen_at = excluded.last_seen_at WHERE principals.last_seen_at < excluded.last_seen_at`,
    bind: [organizationId, principal, now],
  };
}

export async function upsertPrincipalSeen(db: Executor, organizationId: string, principal: string, now: number): Promise<void> {
  const { sql, bind } = principalSeenStatement(organizationId, principal, now);
  await db.execute(sql, bind);
}

export interface PrincipalUseRow {
  principal: string;
  first_seen_at: number;
  last_seen_at: number;
  /** Connections of the principal that are not revoked. */
  connections: number;
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function likeSubstring(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A page of principals ordered by principal (the table's key, so the primary-key index serves the
 * order and the keyset), one row beyond `size` when there is more. `q` matches any part,
 * case-insensitively on both dialects.
 */
export async function pagePrincipals(
  db: Executor,
  organizationId: string,
  q: string | undefined,
  { afterId: afterPrincipal, size }: PageQuery,
): Promise<PrincipalUseRow[]> {
  const conditions: Condition[] = [['p.organization_id = ?', organizationId]];
  if (afterPrincipal !== undefined) conditions.push(['p.principal > ?', afterPrincipal]);
  if (q !== undefined) conditions.push([`LOWER(p.principal) LIKE ? ESCAPE '\\'`, likeSubstring(q)]);
  const { sql, bind } = whereClause(conditions);
  const rows = await db.select<PrincipalUseRow>(
    `SELECT p.principal, p.first_seen_at, p.last_seen_at,
            (SELECT COUNT(*) FROM connections c
              WHERE c.organization_id = p.organization_id AND c.principal = p.principal AND c.status <> 'revoked') AS connections
       FROM principals p${sql}
      ORDER BY p.principal
      LIMIT ${size + 1}`,
    bind,
  );
  return rows.map((row) => ({ ...row, connections: Number(row.connections) }));
}
