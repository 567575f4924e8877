import type { Command } from 'commander';
import type Joi from 'joi';

/**
 * Checks of argument and option values. A value they refuse is a usage error: commander prints one
 * line naming the option or argument and the command exits 2.
 */

const camelCase = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A refused value worded as commander words the values its own parsers refuse, naming the option or argument
 * it came from, and quoting the value unless the reason already does.
 */
function refusal(command: Command, key: string, value: unknown, reason: string, argumentNames: Record<string, string>): string {
  const quotable = (typeof value === 'string' || typeof value === 'number') && !reason.includes(String(value));
  const given = quotable ? ` '${value}'` : '';
  const option = command.options.find((candidate) => candidate.attributeName() === camelCase(key));
  if (option) return `error: option '${option.flags}' argument${given} is invalid. ${reason}`;
  return `error: command-argument value${given} is invalid for argument '${argumentNames[key] ?? key}'. ${reason}`;
}

/**
 * Checks a command's input with the operation's schema, the same one its API route checks a request with
 * (src/domain/contracts), so the CLI and the API accept the same values. Options left out are absent; a
 * refused value is a usage error naming the option, or the argument (`argumentNames` maps an input key to
 * the argument it came from when their names differ), and the API's field, as the API's own message does.
 */
export function checkInput<T>(command: Command, schema: Joi.Schema<T>, input: Record<string, unknown>, argumentNames: Record<string, string> = {}): T {
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const { value, error } = schema.validate(given, { errors: { wrap: { label: false } } });
  if (!error) return value;
  const [detail] = error.details;
  const message = refusal(command, String(detail?.path[0] ?? ''), detail?.context?.value, detail?.message ?? error.message, argumentNames);
  return command.error(message, { exitCode: 2, code: 'gateway.invalidInput' });
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
