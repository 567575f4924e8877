import type { Migration } from '../migrator.js';
import { column } from './columns.js';

export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('connections', {
    id: column.id(),
    organization_id: column.ref(),
    provider: column.text(100),
    principal: column.text(140),
    account_id: column.text(320, true),
    label: column.text(320, true),
    status: column.text(20),
    scopes: column.json('[]'),
    is_default: column.integer(false, 0),
    credential: column.longText(),
    credential_expires_at: column.time(true),
    created_at: column.time(),
    updated_at: column.time(),
    last_used_at: column.time(true),
  });
  await qi.addIndex('connections', ['organization_id', 'principal', 'provider'], { name: 'connections_owner' });

  await qi.createTable('grants', {
    id: column.id(),
    organization_id: column.ref(),
    principal: column.text(140),
    provider: column.text(100),
    connection_id: column.ref(),
    scopes: column.json('[]'),
    state: column.text(20),
    created_at: column.time(),
    updated_at: column.time(),
  });
  await qi.addIndex('grants', ['organization_id', 'id'], { name: 'grants_org' });

  await qi.createTable('connect_sessions', {
    id: column.id(),
    organization_id: column.ref(),
    principal: column.text(140),
    provider: column.text(100),
    scopes: column.json('[]'),
    redirect_uri: column.longText(true),
    secret_hash: column.text(64),
    status: column.text(20),
    browser_hash: column.text(64, true),
    oauth_state_hash: column.text(64, true),
    code_verifier: column.longText(true),
    connection_id: column.ref(true),
    last_error: column.longText(true),
    expires_at: column.time(),
    created_at: column.time(),
    updated_at: column.time(),
  });
  await qi.addIndex('connect_sessions', ['secret_hash'], { unique: true, name: 'connect_sessions_secret' });
  await qi.addIndex('connect_sessions', ['organization_id', 'id'], { name: 'connect_sessions_org' });

  await qi.createTable('oauth_apps', {
    organization_id: { ...column.ref(), primaryKey: true },
    provider: { ...column.text(100), primaryKey: true },
    client_id: column.text(500),
    client_secret: column.longText(),
    scopes: column.json('[]'),
    created_at: column.time(),
    updated_at: column.time(),
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('oauth_apps');
  await qi.dropTable('connect_sessions');
  await qi.dropTable('grants');
  await qi.dropTable('connections');
};
