import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { Database } from '../db/database.js';
import type { Keyring } from './secrets.js';
import type { Catalog } from './catalog/types.js';

/** One run as it ended: recorded as `hit`, `miss` or `fault`, with its time in the gateway and upstream. */
export interface FinishedRun {
  provider: string;
  outcome: 'hit' | 'miss' | 'fault';
  /** From the validated request to the settled call, in milliseconds. */
  totalMs: number;
  /** The sum of its upstream attempts, in milliseconds (0 for a miss). */
  upstreamMs: number;
}

/**
 * What the run path and the webhook worker report as they finish (the HTTP layer turns it into metrics).
 * Called on the hot path: implementations do constant work and never throw.
 */
export interface GatewayObserver {
  runFinished(run: FinishedRun): void;
  deliveryAttempted(outcome: 'delivered' | 'retrying' | 'failed'): void;
}

/** What every domain operation is handed: config, database, keys, the loaded catalog and the logger (put together by src/app). */
export interface Gateway {
  config: Config;
  db: Database;
  keyring: Keyring;
  catalog: Catalog;
  log: Logger;
  /** Set when metrics are enabled (`metrics.token`). */
  observer?: GatewayObserver;
}
