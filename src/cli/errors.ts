import { ConfigError } from '../config/load.js';
import { DatabaseUnavailable } from '../app/gateway.js';
import { CatalogError } from '../domain/catalog/load.js';
import { GatewayError } from '../domain/errors.js';

/** A failure of the work that the command explains in one line of its own (exit 1). */
export class CommandFailure extends Error {}

/**
 * For a domain call that answers an unknown id or entry as invalid input (the API's 400): to a command,
 * whose arguments were checked before, that is a failure of the work (exit 1), as any id it cannot find.
 */
export function notFoundAsFailure(error: unknown): never {
  throw error instanceof GatewayError && error.code === 'invalid_input' ? new CommandFailure(error.message) : error;
}

/** The one error handler of every command: one clear line on stderr, a non-zero exit, never a stack. */
export function handleError(error: unknown): never {
  // invalid_input from a command's own arguments (a malformed name, URL or cursor) is a usage error too.
  if (error instanceof ConfigError || error instanceof CatalogError || (error instanceof GatewayError && error.code === 'invalid_input')) {
    process.stderr.write(`gateway: ${error.message}\n`);
    process.exit(2);
  }
  const message =
    error instanceof GatewayError || error instanceof DatabaseUnavailable || error instanceof CommandFailure
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
