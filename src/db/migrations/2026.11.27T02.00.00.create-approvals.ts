import type { Migration } from '../migrator.js';
import { column } from './columns.js';

/**
 * Approvals (docs/approvals.md): an organization's policy of which runs need their end user's approval, the
 * approvals asked for, and on each call the approval it ran under.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.addColumn('organizations', 'approval_policy', column.json('{}'));
  await qi.addColumn('calls', 'approval_id', column.ref(true));
  await qi.createTable('approvals', {
    id: column.id(),
    organization_id: { ...column.ref(), references: { model: 'organizations', key: 'id' } },
    principal: column.text(140),
    task_id: column.text(200),
    /** SHA-256 of the canonical JSON of the input as it will be sent, and of the routing headers. */
    input_sha256: column.text(64),
    routing_sha256: column.text(64),
    /** The input as the page shows it (credentials masked), bounded like a capture. */
    shown_input: column.longText(),
    price_micros: column.money(),
    token_id: column.ref(true),
    status: column.text(20),
    created_at: column.time(),
    expires_at: column.time(),
    decided_at: column.time(true),
    used_at: column.time(true),
    /** The idempotency key of the run that used it: a repeat under that key is answered by idempotency. */
    used_key: column.text(255, true),
  });
  await qi.addIndex('approvals', ['organization_id', 'id'], { name: 'approvals_org' });
  await qi.addIndex('approvals', ['organization_id', 'principal', 'task_id', 'input_sha256'], { name: 'approvals_binding' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('approvals');
  await qi.removeColumn('calls', 'approval_id');
  await qi.removeColumn('organizations', 'approval_policy');
};
