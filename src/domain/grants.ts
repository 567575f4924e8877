import { pageGrants, type GrantRow } from '../db/repos/grants.js';
import type { Gateway } from './gateway.js';
import { pageQuery, toPage } from './paging.js';
import { isoTime } from './time.js';

export type GrantState = GrantRow['state'];

export interface Grant {
  id: string;
  principal: string;
  provider: string;
  connection_id: string;
  scopes: string[];
  state: GrantState;
  created_at: string;
  updated_at: string;
}

export interface GrantList {
  grants: Grant[];
  next_cursor: string | null;
}

function presentGrant(row: GrantRow): Grant {
  return {
    id: row.id,
    principal: row.principal,
    provider: row.provider,
    connection_id: row.connection_id,
    scopes: row.scopes,
    state: row.state,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}

/** GET /v1/grants: every consent of the organization, newest first, optionally one principal's or one state's. */
export async function listGrants(
  gateway: Pick<Gateway, 'db'>,
  organizationId: string,
  filters: { principal?: string; state?: GrantState; cursor?: string },
): Promise<GrantList> {
  const rows = await pageGrants(gateway.db, organizationId, { principal: filters.principal, state: filters.state }, pageQuery(filters.cursor));
  const page = toPage(rows, (row) => row.id);
  return { grants: page.items.map(presentGrant), next_cursor: page.next_cursor };
}
