import { Option, type Command } from 'commander';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { migrate } from '../db/migrator.js';
import { openGateway, type Gateway } from '../domain/gateway.js';
import { resolveOrganization } from '../domain/organizations.js';
import type { OrganizationRow } from '../db/models/index.js';

export interface CommonOptions {
  json?: boolean;
  org?: string;
}

/** The --org option every organization-scoped admin command takes. */
export const orgOption = () => new Option('--org <name>', 'organization (optional when only one exists)');

/** The root program's --config, readable from any subcommand. */
export function configFor(command: Command, overrides?: Record<string, unknown>): Config {
  const root = command.optsWithGlobals() as { config?: string };
  return loadConfig({ file: root.config, overrides });
}

/**
 * Admin commands act on the configured database directly; they bring its schema up to date first
 * so a fresh install works without a separate migrate step.
 */
export async function withGateway<T>(command: Command, work: (gateway: Gateway) => Promise<T>): Promise<T> {
  const gateway = await openGateway(configFor(command), undefined);
  gateway.log.level = 'silent';
  try {
    await migrate(gateway.db);
    return await work(gateway);
  } finally {
    await gateway.db.close();
  }
}

export async function withOrganization<T>(
  command: Command,
  options: CommonOptions,
  work: (gateway: Gateway, org: OrganizationRow) => Promise<T>,
): Promise<T> {
  return withGateway(command, async (gateway) => work(gateway, await resolveOrganization(gateway.db, options.org)));
}
