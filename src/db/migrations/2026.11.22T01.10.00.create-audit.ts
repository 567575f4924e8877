import type { Migration } from '../migrator.js';
import { column } from './columns.js';

export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('calls', {
    id: column.id(),
    organization_id: column.ref(),
    task_id: column.text(200),
    provider: column.text(100),
    principal: column.text(140),
    token_id: column.ref(true),
    connection_id: column.ref(true),
    identity: column.text(120, true),
    outcome: column.text(20),
    http_status: column.integer(true),
    error_code: column.text(60, true),
    quoted_micros: column.money(),
    charged_micros: column.money(),
    latency_ms: column.integer(true),
    tag: column.text(200, true),
    created_at: column.time(),
    updated_at: column.time(),
  });
  await qi.addIndex('calls', ['organization_id', 'id'], { name: 'calls_org' });
  await qi.addIndex('calls', ['outcome'], { name: 'calls_outcome' });
  await qi.addIndex('calls', ['task_id', 'created_at'], { name: 'calls_task_time' });

  await qi.createTable('captures', {
    call_id: column.id(),
    organization_id: column.ref(),
    input: column.longText(),
    output: column.longText(true),
    created_at: column.time(),
  });
  await qi.addIndex('captures', ['organization_id', 'call_id'], { name: 'captures_org' });

  await qi.createTable('idempotency_keys', {
    organization_id: { ...column.ref(), primaryKey: true },
    idempotency_key: { ...column.text(255), primaryKey: true },
    request_hash: column.text(64),
    state: column.text(20),
    status_code: column.integer(true),
    response: column.longText(true),
    created_at: column.time(),
    expires_at: column.time(),
  });

  await qi.createTable('rate_limit_counters', {
    bucket: { ...column.text(255), primaryKey: true },
    window_start: column.time(),
    hits: column.integer(false, 0),
  });
  await qi.addIndex('rate_limit_counters', ['window_start'], { name: 'rate_limit_counters_window' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('rate_limit_counters');
  await qi.dropTable('idempotency_keys');
  await qi.dropTable('captures');
  await qi.dropTable('calls');
};
