import type { CallRow } from '../../db/repos/calls.js';
import type { ConnectionRow, ConnectionStatus } from '../../db/repos/connections.js';
import type { GrantRow } from '../../db/repos/grants.js';
import { isoTime } from '../time.js';

/** The public Connection record: what the API, webhooks and hosted pages show. Never a secret. */
export interface Connection {
  id: string;
  provider: string;
  principal: string;
  account_id: string | null;
  label: string | null;
  status: ConnectionStatus;
  scopes: string[];
  default: boolean;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}

export interface ConnectionDetail extends Connection {
  grants: Array<{ id: string; scopes: string[]; state: GrantRow['state']; created_at: string; updated_at: string }>;
  last_call: { id: string; task: string; outcome: CallRow['outcome']; created_at: string } | null;
}

export function presentConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    provider: row.provider,
    principal: row.principal,
    account_id: row.account_id,
    label: row.label,
    status: row.status,
    scopes: row.scopes,
    default: row.is_default,
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
    last_used_at: row.last_used_at === null ? null : isoTime(Number(row.last_used_at)),
  };
}

export function presentConnectionDetail(row: ConnectionRow, grants: GrantRow[], lastCall: CallRow | null): ConnectionDetail {
  return {
    ...presentConnection(row),
    grants: grants.map((grant) => ({
      id: grant.id,
      scopes: grant.scopes,
      state: grant.state,
      created_at: isoTime(Number(grant.created_at)),
      updated_at: isoTime(Number(grant.updated_at)),
    })),
    last_call: lastCall && { id: lastCall.id, task: lastCall.task_id, outcome: lastCall.outcome, created_at: isoTime(Number(lastCall.created_at)) },
  };
}
