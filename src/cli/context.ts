import { Option, type Command } from 'commander';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { openMigratedGateway } from '../app/gateway.js';
import type { Gateway } from '../domain/gateway.js';
import { presentOrganization, resolveOrganization, type Organization } from '../domain/organizations.js';

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
  const gateway = await openMigratedGateway(configFor(command));
  gateway.log.level = 'silent';
  try {
    return await work(gateway);
  } finally {
    await gateway.db.close();
  }
}

export async function withOrganization<T>(
  command: Command,
  options: CommonOptions,
  work: (gateway: Gateway, org: Organization) => Promise<T>,
): Promise<T> {
  return withGateway(command, async (gateway) => work(gateway, presentOrganization(await resolveOrganization(gateway, options.org))));
}
