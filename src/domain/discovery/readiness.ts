import { activeConnectionOwners } from '../../db/repos/connections.js';
import type { Provider, Task } from '../catalog/types.js';
import type { Gateway } from '../gateway.js';
import { ORGANIZATION, isUserPrincipal } from '../principals.js';

/** A task that runs without any connection: utilities, providers needing no credential, a platform key. */
function readyWithoutConnection(task: Task, provider: Provider | undefined): boolean {
  if (task.kind === 'utility' || !provider || provider.auth.type === 'none') return true;
  return task.kind !== 'account' && provider.platformSecret?.() !== undefined;
}

/**
 * Whether each task could run for `principal` right now with a credential that exists (docs/discovery.md):
 * account tasks need the user principal's own active connection; data and action tasks take the
 * principal's or the organization's, or the platform credential. One query, and none when no task needs it.
 */
export async function readiness(gateway: Pick<Gateway, 'catalog' | 'db'>, organizationId: string, principal: string, tasks: Task[]): Promise<Map<string, boolean>> {
  const ready = new Map<string, boolean>();
  const needConnection = tasks.filter((task) => !readyWithoutConnection(task, gateway.catalog.providers.get(task.provider)));
  for (const task of tasks) ready.set(task.id, true);
  if (needConnection.length === 0) return ready;
  const owners = await activeConnectionOwners(gateway.db, organizationId, [...new Set([principal, ORGANIZATION])]);
  const held = (who: string, provider: string) => owners.some((owner) => owner.principal === who && owner.provider === provider);
  for (const task of needConnection) {
    ready.set(
      task.id,
      task.kind === 'account'
        ? isUserPrincipal(principal) && held(principal, task.provider)
        : held(principal, task.provider) || held(ORGANIZATION, task.provider),
    );
  }
  return ready;
}
