import type { CallRow, CaptureRow } from '../../db/repos/calls.js';
import { microsToUsd } from '../run/request.js';
import { isoTime } from '../time.js';

/** The Call record: who ran what, as whom, on which credential, how it ended and what it cost. */
export interface Call {
  id: string;
  task: string;
  provider: string;
  principal: string;
  /** The key or principal-bound token that made the call. */
  token_id: string | null;
  connection_id: string | null;
  identity: string | null;
  outcome: CallRow['outcome'];
  http_status: number | null;
  error_code: string | null;
  quoted_usd: number;
  charged_usd: number;
  latency_ms: number | null;
  tag: string | null;
  created_at: string;
  updated_at: string;
}

export interface Capture {
  call_id: string;
  input: unknown;
  /** Null when the call has no provider answer (miss, fault). */
  output: unknown;
  created_at: string;
}

const orNull = (value: number | null) => (value === null ? null : Number(value));

export function presentCall(row: CallRow): Call {
  return {
    id: row.id,
    task: row.task_id,
    provider: row.provider,
    principal: row.principal,
    token_id: row.token_id,
    connection_id: row.connection_id,
    identity: row.identity,
    outcome: row.outcome,
    http_status: orNull(row.http_status),
    error_code: row.error_code,
    quoted_usd: microsToUsd(Number(row.quoted_micros)),
    charged_usd: microsToUsd(Number(row.charged_micros)),
    latency_ms: orNull(row.latency_ms),
    tag: row.tag,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}

export function presentCapture(row: CaptureRow): Capture {
  return {
    call_id: row.call_id,
    input: row.input,
    output: row.output,
    created_at: isoTime(row.created_at),
  };
}
