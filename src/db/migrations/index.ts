import type { RunnableMigration } from 'umzug';
import type { QueryInterface } from 'sequelize';
import type { Migration } from '../migrator.js';

type Module = { up: Migration; down: Migration };

/**
 * Listed explicitly (not globbed) so the compiled binary finds every migration. A migration's module (and
 * Sequelize with it) loads only when it runs: checking which migrations a database lacks needs just the names.
 */
const modules: Array<[string, () => Promise<Module>]> = [
  ['2026.11.22T01.00.00.create-callers', () => import('./2026.11.22T01.00.00.create-callers.js')],
  ['2026.11.22T01.10.00.create-audit', () => import('./2026.11.22T01.10.00.create-audit.js')],
  ['2026.11.22T01.20.00.create-connections', () => import('./2026.11.22T01.20.00.create-connections.js')],
  ['2026.11.22T01.30.00.create-webhooks', () => import('./2026.11.22T01.30.00.create-webhooks.js')],
  ['2026.11.22T02.50.00.webhook-delivery-leases', () => import('./2026.11.22T02.50.00.webhook-delivery-leases.js')],
  ['2026.11.25T01.00.00.bounded-captures', () => import('./2026.11.25T01.00.00.bounded-captures.js')],
  ['2026.11.27T01.00.00.organization-display-names', () => import('./2026.11.27T01.00.00.organization-display-names.js')],
  ['2026.11.27T02.00.00.create-approvals', () => import('./2026.11.27T02.00.00.create-approvals.js')],
  ['2026.11.28T01.00.00.organization-names-ignore-case', () => import('./2026.11.28T01.00.00.organization-names-ignore-case.js')],
];

/** Every migration's name, oldest first. */
export const migrationNames: string[] = modules.map(([name]) => name);

export const migrations: RunnableMigration<QueryInterface>[] = modules.map(([name, load]) => ({
  name,
  up: async (params) => (await load()).up(params),
  down: async (params) => (await load()).down(params),
}));
