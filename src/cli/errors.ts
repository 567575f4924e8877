import { ConfigError } from '../config/errors.js';
import { DatabaseNotReady, DatabaseUnavailable } from '../app/gateway.js';
import { CatalogError } from '../domain/catalog/errors.js';
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

/** What the one error handler of every command says about a failure, and the exit code: never a stack. */
export function failureOf(error: unknown): { message: string; exitCode: 1 | 2 } {
  // invalid_input from a command's own arguments (a malformed name, URL or cursor) is a usage error too.
  if (error instanceof ConfigError || error instanceof CatalogError || (error instanceof GatewayError && error.code === 'invalid_input')) {
    return { message: error.message, exitCode: 2 };
  }
  const message =
    error instanceof GatewayError || error instanceof DatabaseUnavailable || error instanceof DatabaseNotReady || error instanceof CommandFailure
      ? error.message
      : `unexpected failure (${(error as Error)?.name ?? 'error'}: ${String((error as Error)?.message ?? error).split('\n')[0]})`;
  return { message, exitCode: 1 };
}
