import type { CallRow, StoredCapture } from '../../db/repos/calls.js';
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
  /** The approval the call ran under, or asked for (docs/approvals.md). */
  approval_id: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The Capture record: a call's input and output as stored, each whole or, when its JSON text was longer than
 * limits.max_capture_bytes, a JSON string holding the start of that text (the side is named in `truncated`).
 */
export interface Capture {
  call_id: string;
  input: unknown;
  /** Null when the call has no provider answer (miss, fault). */
  output: unknown;
  created_at: string;
  /** The size of each side's whole JSON text in bytes, before any cut. */
  input_bytes: number;
  output_bytes: number | null;
  truncated: Array<'input' | 'output'>;
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
    approval_id: row.approval_id,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}

/**
 * The Capture record's JSON text, its input, output and `truncated` spliced in as stored: a capture is never
 * parsed and written again on its way out, so reading one costs copying its bytes, whatever they hold.
 */
export function captureJson(row: StoredCapture): string {
  const outputBytes = row.output_bytes === null ? 'null' : String(Number(row.output_bytes));
  return (
    `{"call_id":${JSON.stringify(row.call_id)},"input":${row.input},"output":${row.output ?? 'null'},` +
    `"created_at":"${isoTime(row.created_at)}","input_bytes":${Number(row.input_bytes)},"output_bytes":${outputBytes},"truncated":${row.truncated}}`
  );
}
