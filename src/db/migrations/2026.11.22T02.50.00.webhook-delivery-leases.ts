import type { Migration } from '../migrator.js';
import { column } from './columns.js';

/**
 * lease_token fences a claimed delivery: only the worker holding the current lease may record its
 * attempt. expiring_checked_for holds the credential_expires_at value the connection.expiring scan
 * has already examined, so each expiry is considered (and announced) once; a new credential with a
 * new expiry is examined afresh.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.addColumn('webhook_deliveries', 'lease_token', column.text(64, true));
  await qi.addColumn('connections', 'expiring_checked_for', column.time(true));
  await qi.addIndex('connections', ['credential_expires_at'], { name: 'connections_credential_expiry' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeIndex('connections', 'connections_credential_expiry');
  await qi.removeColumn('connections', 'expiring_checked_for');
  await qi.removeColumn('webhook_deliveries', 'lease_token');
};
