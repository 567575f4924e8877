import type { Config } from '../config/schema.js';
import type { Database } from '../db/database.js';
import { schemaState } from '../db/inspect.js';
import { migrate } from '../db/migrator.js';
import type { Gateway } from '../domain/gateway.js';
import { DatabaseNotReady, lacking, openWithoutCatalog } from './gateway.js';
import { createInitialOwnerKey, type InitialOwnerKey } from './owner-key.js';

/** The server could not listen (a port in use, one not allowed, an address not of this machine): `code` is Node's. */
export class ListenFailed extends Error {
  constructor(readonly code: string | undefined) {
    super(`cannot listen (${code ?? 'unknown error'})`);
    this.name = 'ListenFailed';
  }
}

export interface ServingGateway {
  /** The address the server listens on. */
  uri: string;
  /** The owner key of a first run, to be shown once; null on later starts. */
  ownerKey: InitialOwnerKey | null;
  /** Stops the background workers, then the server (letting requests in flight finish), then closes the database. */
  stop(reason: string): Promise<void>;
}

/**
 * Applies pending migrations (unless told not to, when any pending one is refused). Which are pending is two
 * plain reads; umzug and Sequelize load only when there is something to apply.
 */
async function bringSchemaUpToDate(db: Database, apply: boolean): Promise<void> {
  const { pending } = await schemaState(db);
  if (!pending.length) return;
  if (!apply) throw new DatabaseNotReady(`${lacking(db.url, pending)}: run gateway migrate, or start without --no-migrate`);
  await migrate(db);
}

/**
 * What `gateway serve` runs: the catalog loaded, the database opened (and migrated unless told not to) and the
 * first run's owner key, then the port bound, answering /health while the HTTP stack's heavier modules and the routes
 * load (requests that need them wait), then the background workers. A listen failure is a ListenFailed, for the
 * CLI to word; a catalog that does not load rejects with its CatalogError before anything listens.
 */
export async function serveGateway(config: Config, options: { migrate: boolean; beforeListen?: () => Promise<void> }): Promise<ServingGateway> {
  // The HTTP stack loads only here, so the admin commands start without it.
  const [{ startServer }, { shutdown }, { loadCatalog }] = await Promise.all([
    import('../http/serving.js'),
    import('../http/base-server.js'),
    import('../domain/catalog/load.js'),
  ]);
  const essentials = await openWithoutCatalog(config);
  let ownerKey: InitialOwnerKey | null;
  let gateway: Gateway;
  try {
    // The catalog first: one that does not load stops serve before it migrates or makes a key it could not print.
    gateway = { ...essentials, catalog: loadCatalog(config) };
    await bringSchemaUpToDate(essentials.db, options.migrate);
    ownerKey = await createInitialOwnerKey(essentials);
  } catch (error) {
    await essentials.db.close();
    throw error;
  }
  await options.beforeListen?.();
  const http = await startServer(gateway).catch(async (error: NodeJS.ErrnoException) => {
    await essentials.db.close();
    throw new ListenFailed(error.code);
  });
  let background: { stop(): Promise<void> };
  try {
    await http.complete;
    const { startBackground } = await import('../domain/background.js');
    background = await startBackground(gateway);
  } catch (error) {
    await shutdown(http.server, essentials);
    throw error;
  }
  return {
    uri: http.server.info.uri,
    ownerKey,
    async stop(reason) {
      essentials.log.info({ signal: reason }, 'shutting down');
      await background.stop();
      await shutdown(http.server, essentials);
    },
  };
}
