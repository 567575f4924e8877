import { InvalidArgumentError, type Command } from 'commander';
import { PRINCIPAL_FORMAT, PRINCIPAL_PATTERN } from '../domain/principals.js';

/**
 * Checks of argument and option values. A value they refuse is a usage error: commander prints one
 * line naming the option or argument and the command exits 2.
 */

/** The API's rule for bounded text: at most `max` characters, no NUL, no lone surrogate. */
export function boundedText(max: number): (value: string) => string {
  return (value) => {
    if (value.length === 0 || value.length > max) throw new InvalidArgumentError(`must be 1 to ${max} characters`);
    if (value.includes('\u0000')) throw new InvalidArgumentError('must not contain a NUL character');
    if (!value.isWellFormed()) throw new InvalidArgumentError('must not contain a lone surrogate');
    return value;
  };
}

export function principal(value: string): string {
  if (!PRINCIPAL_PATTERN.test(value)) throw new InvalidArgumentError(PRINCIPAL_FORMAT);
  return value;
}

const isEmpty = (value: unknown) => typeof value === 'string' && value.trim() === '';

/**
 * Before any command runs: an empty argument or option value (`orgs create ""`, `--org ""`) is a
 * usage error, not something to look up or store.
 */
export function refuseEmptyValues(command: Command): void {
  const args = command.registeredArguments;
  command.processedArgs.forEach((value: unknown, index: number) => {
    const values = Array.isArray(value) ? value : [value];
    if (values.some(isEmpty)) command.error(`error: argument '${args[index]?.name() ?? index + 1}' must not be empty`, { exitCode: 2, code: 'gateway.emptyArgument' });
  });
  for (const option of command.options) {
    const value = command.getOptionValue(option.attributeName());
    if (isEmpty(value)) command.error(`error: option '${option.flags}' must not be empty`, { exitCode: 2, code: 'gateway.emptyOption' });
  }
}
