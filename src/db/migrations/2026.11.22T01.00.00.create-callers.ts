import type { Migration } from '../migrator.js';
import { column } from './columns.js';

export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('organizations', {
    id: column.id(),
    name: column.text(100),
    status: column.text(20),
    trusted_origins: column.json('[]'),
    redirect_uris: column.json('[]'),
    created_at: column.time(),
    updated_at: column.time(),
  });
  await qi.addIndex('organizations', ['name'], { unique: true, name: 'organizations_name' });

  await qi.createTable('api_keys', {
    id: column.id(),
    organization_id: { ...column.ref(), references: { model: 'organizations', key: 'id' } },
    name: column.text(100, true),
    role: column.text(20),
    key_hash: column.text(64),
    created_at: column.time(),
    last_used_at: column.time(true),
    revoked_at: column.time(true),
  });
  await qi.addIndex('api_keys', ['key_hash'], { unique: true, name: 'api_keys_key_hash' });
  await qi.addIndex('api_keys', ['organization_id', 'id'], { name: 'api_keys_org' });

  await qi.createTable('user_tokens', {
    id: column.id(),
    organization_id: { ...column.ref(), references: { model: 'organizations', key: 'id' } },
    principal: column.text(140),
    token_hash: column.text(64),
    issued_by: column.ref(),
    expires_at: column.time(),
    created_at: column.time(),
    revoked_at: column.time(true),
  });
  await qi.addIndex('user_tokens', ['token_hash'], { unique: true, name: 'user_tokens_token_hash' });
  await qi.addIndex('user_tokens', ['organization_id', 'id'], { name: 'user_tokens_org' });

  await qi.createTable('principals', {
    organization_id: { ...column.ref(), primaryKey: true, references: { model: 'organizations', key: 'id' } },
    principal: { ...column.text(140), primaryKey: true },
    first_seen_at: column.time(),
    last_seen_at: column.time(),
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('principals');
  await qi.dropTable('user_tokens');
  await qi.dropTable('api_keys');
  await qi.dropTable('organizations');
};
