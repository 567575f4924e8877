import { markExpiryExamined, unexaminedExpiringConnections } from '../../db/repos/connections.js';
import type { BackgroundTask } from '../background.js';
import { openCredential } from '../connections/credentials.js';
import { presentConnection } from '../connections/present.js';
import type { Gateway } from '../gateway.js';
import { emitConnectionEvent } from './events.js';

/** Connections examined per query; the scan repeats until none is left. */
const BATCH = 200;

/**
 * Only an OAuth2 credential that carries a refresh token can outlive its access token's expiry; one
 * the keyring cannot read cannot be refreshed either.
 */
function refreshable(gateway: Pick<Gateway, 'keyring'>, sealed: string): boolean {
  try {
    const credential = openCredential(gateway.keyring, sealed);
    return credential.type === 'oauth2' && Boolean(credential.refresh_token);
  } catch {
    return false;
  }
}

/**
 * Emits connection.expiring for every active connection whose credential expires within
 * webhooks.expiring_horizon_s and cannot be refreshed, once per connection and expiry: a renewed
 * credential with a new expiry is examined afresh. Returns how many events it emitted.
 */
export async function scanExpiringCredentials(gateway: Pick<Gateway, 'config' | 'db' | 'keyring'>, now = Date.now()): Promise<number> {
  const { db } = gateway;
  const until = now + gateway.config.webhooks.expiring_horizon_s * 1000;
  let emitted = 0;
  for (;;) {
    const due = await unexaminedExpiringConnections(db, now, until, BATCH);
    for (const row of due) {
      const expiresAt = Number(row.credential_expires_at);
      await db.transaction(async (t) => {
        if (!(await markExpiryExamined(t, row.id, expiresAt)) || refreshable(gateway, row.credential)) return;
        await emitConnectionEvent(t, row.organization_id, 'connection.expiring', presentConnection(row));
        emitted++;
      });
    }
    if (due.length < BATCH) return emitted;
  }
}

/** Runs the scan when `serve` starts and every webhooks.expiring_scan_interval_s after. */
export const expiringScanTask: BackgroundTask = {
  name: 'connection-expiring-scan',
  async start(gateway) {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    let running: Promise<void> = Promise.resolve();
    const tick = () => {
      running = scanExpiringCredentials(gateway)
        .then(
          (emitted) => emitted > 0 && gateway.log.info({ emitted }, 'connection.expiring events emitted'),
          (err: Error) => gateway.log.warn({ error: err.name }, 'connection.expiring scan failed; it runs again at the next interval'),
        )
        .then(() => {
          if (!stopped) timer = setTimeout(tick, gateway.config.webhooks.expiring_scan_interval_s * 1000);
        });
    };
    tick();
    return {
      async stop() {
        stopped = true;
        clearTimeout(timer);
        await running;
      },
    };
  },
};
