import type { Call } from '../../domain/audit/present.js';

export type Outcome = Call['outcome'];

/** The fields of the public Call record that the terminal UI shows. */
export type TailCall = Pick<
  Call,
  'id' | 'task' | 'principal' | 'identity' | 'outcome' | 'http_status' | 'error_code' | 'charged_usd' | 'latency_ms' | 'created_at' | 'approval_id'
>;
