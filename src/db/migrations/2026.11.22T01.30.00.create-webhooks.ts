import type { Migration } from '../migrator.js';
import { column } from './columns.js';

export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('webhooks', {
    id: column.id(),
    organization_id: column.ref(),
    url: column.text(2000),
    secret: column.longText(),
    created_at: column.time(),
    deleted_at: column.time(true),
  });
  await qi.addIndex('webhooks', ['organization_id'], { name: 'webhooks_org' });

  await qi.createTable('webhook_events', {
    id: column.id(),
    organization_id: column.ref(),
    type: column.text(60),
    payload: column.longText(),
    created_at: column.time(),
  });

  await qi.createTable('webhook_deliveries', {
    id: column.id(),
    organization_id: column.ref(),
    webhook_id: column.ref(),
    event_id: column.ref(),
    state: column.text(20),
    attempts: column.integer(false, 0),
    last_status: column.integer(true),
    last_error: column.longText(true),
    next_attempt_at: column.time(),
    locked_until: column.time(true),
    created_at: column.time(),
    updated_at: column.time(),
  });
  await qi.addIndex('webhook_deliveries', ['state', 'next_attempt_at'], { name: 'webhook_deliveries_due' });
  await qi.addIndex('webhook_deliveries', ['webhook_id', 'id'], { name: 'webhook_deliveries_webhook' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('webhook_deliveries');
  await qi.dropTable('webhook_events');
  await qi.dropTable('webhooks');
};
