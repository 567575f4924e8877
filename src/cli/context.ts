import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { openAdminGateway } from '../app/gateway.js';
import type { Gateway } from '../domain/gateway.js';
import { presentOrganization, resolveOrganization, type Organization } from '../domain/organizations.js';
import { invocationOf } from './invocation.js';

import type { CommonOptions } from './options.js';

export type { CommonOptions } from './options.js';

/** The root program's --config over the invocation's environment, readable from any subcommand. */
export function configFor(command: Command, overrides?: Record<string, unknown>): Config {
  const root = command.optsWithGlobals() as { config?: string };
  return loadConfig({ file: root.config, env: invocationOf(command).env, overrides });
}

/**
 * Admin commands act on the configured database directly; they bring its schema up to date first
 * so a fresh install works without a separate migrate step.
 */
export async function withGateway<T>(command: Command, work: (gateway: Gateway) => Promise<T>): Promise<T> {
  const gateway = await openAdminGateway(configFor(command));
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
