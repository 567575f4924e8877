import type { RunnableMigration } from 'umzug';
import type { QueryInterface } from 'sequelize';
import type { Migration } from '../migrator.js';
import * as createCallers from './2026.11.22T01.00.00.create-callers.js';
import * as createAudit from './2026.11.22T01.10.00.create-audit.js';
import * as createConnections from './2026.11.22T01.20.00.create-connections.js';
import * as createWebhooks from './2026.11.22T01.30.00.create-webhooks.js';
import * as webhookDeliveryLeases from './2026.11.22T02.50.00.webhook-delivery-leases.js';
import * as boundedCaptures from './2026.11.25T01.00.00.bounded-captures.js';
import * as organizationDisplayNames from './2026.11.27T01.00.00.organization-display-names.js';

type Module = { up: Migration; down: Migration };

/** Listed explicitly (not globbed) so the compiled binary finds every migration. */
const modules: Array<[string, Module]> = [
  ['2026.11.22T01.00.00.create-callers', createCallers],
  ['2026.11.22T01.10.00.create-audit', createAudit],
  ['2026.11.22T01.20.00.create-connections', createConnections],
  ['2026.11.22T01.30.00.create-webhooks', createWebhooks],
  ['2026.11.22T02.50.00.webhook-delivery-leases', webhookDeliveryLeases],
  ['2026.11.25T01.00.00.bounded-captures', boundedCaptures],
  ['2026.11.27T01.00.00.organization-display-names', organizationDisplayNames],
];

export const migrations: RunnableMigration<QueryInterface>[] = modules.map(([name, module]) => ({
  name,
  up: module.up,
  down: module.down,
}));
