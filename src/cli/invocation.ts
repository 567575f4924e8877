import type { Command } from 'commander';

/**
 * One run of the CLI: where it writes, the environment it reads its configuration from, and the exit code
 * its work settled on. `gateway` runs one per process; tests run many in one process, each with its own.
 */
export interface Invocation {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** Set by a command whose work failed after it printed its answer (`doctor` with a failing check). */
  exitCode: number;
}

const invocations = new WeakMap<Command, Invocation>();

/** Binds an invocation to the program it runs. */
export function bindInvocation(program: Command, invocation: Invocation): void {
  invocations.set(program, invocation);
}

/** The invocation a command runs in (bound to its root program). */
export function invocationOf(command: Command): Invocation {
  let root = command;
  while (root.parent) root = root.parent;
  const invocation = invocations.get(root);
  if (!invocation) throw new Error(`command ${command.name()} runs outside an invocation`);
  return invocation;
}

/**
 * An action whose module is imported only when its command runs: declaring every command costs only
 * commander, and each command loads the database, the catalog or ink only if it uses them.
 */
export function load(module: () => Promise<{ run(...args: any[]): Promise<void> }>): (...args: any[]) => Promise<void> {
  return async (...args) => (await module()).run(...args);
}
