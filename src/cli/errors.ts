import { ConfigError } from '../config/load.js';
import { DatabaseUnavailable } from '../db/database.js';
import { CatalogError } from '../domain/catalog/load.js';
import { GatewayError } from '../domain/errors.js';

/** The one error handler of every command: one clear line on stderr, a non-zero exit, never a stack. */
export function handleError(error: unknown): never {
  if (error instanceof ConfigError || error instanceof CatalogError) {
    process.stderr.write(`gateway: ${error.message}\n`);
    process.exit(2);
  }
  const message =
    error instanceof GatewayError || error instanceof DatabaseUnavailable
      ? error.message
      : `unexpected failure (${(error as Error)?.name ?? 'error'}: ${String((error as Error)?.message ?? error).split('\n')[0]})`;
  process.stderr.write(`gateway: ${message}\n`);
  process.exit(1);
}

/** Wraps a command action so every failure goes through handleError. */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (error) {
      handleError(error);
    }
  };
}
