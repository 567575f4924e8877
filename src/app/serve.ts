import type { Config } from '../config/schema.js';
import type { Database } from '../db/database.js';
import { schemaState } from '../db/inspect.js';
import { migrate } from '../db/migrator.js';
import { DatabaseNotReady, lacking, openGateway } from './gateway.js';
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
 * What `gateway serve` runs: the gateway opened (and migrated unless told not to), the first run's owner key,
 * the HTTP server and the background workers. A listen failure is a ListenFailed, for the CLI to word.
 */
export async function serveGateway(config: Config, options: { migrate: boolean }): Promise<ServingGateway> {
  // The HTTP stack loads only here, so the admin commands start without it.
  const [{ createServer, shutdown }, { startBackground }] = await Promise.all([import('../http/server.js'), import('../domain/background.js')]);
  const gateway = await openGateway(config);
  try {
    await bringSchemaUpToDate(gateway.db, options.migrate);
  } catch (error) {
    await gateway.db.close();
    throw error;
  }
  const ownerKey = await createInitialOwnerKey(gateway);
  const http = await createServer(gateway);
  const background = await startBackground(gateway);
  await http.start().catch(async (error: NodeJS.ErrnoException) => {
    await background.stop();
    await gateway.db.close();
    throw new ListenFailed(error.code);
  });
  return {
    uri: http.info.uri,
    ownerKey,
    async stop(reason) {
      gateway.log.info({ signal: reason }, 'shutting down');
      await background.stop();
      await shutdown(http, gateway);
    },
  };
}
