export type Outcome = 'pending' | 'hit' | 'miss' | 'fault';

/** The fields of the public Call record that the terminal UI shows. */
export interface TailCall {
  id: string;
  task: string;
  principal: string;
  identity: string | null;
  outcome: Outcome;
  charged_usd: number;
  latency_ms: number | null;
  created_at: string;
}
