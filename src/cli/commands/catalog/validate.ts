import path from 'node:path';
import type { Command } from 'commander';
import { buildCatalog, builtinCatalogFiles, CatalogError } from '../../../domain/catalog/load.js';
import { invocationOf } from '../../invocation.js';
import { print, printable } from '../../output.js';

/**
 * Checks a self-hoster's catalog file as `serve` would load it: after the built-in catalog, so its tasks
 * may name built-in providers and its ids must not clash with built-in ones.
 */
export async function run(file: string, options: { json?: boolean }, command: Command): Promise<void> {
  const resolved = path.resolve(file);
  const files = [...builtinCatalogFiles().filter((builtin) => builtin !== resolved), file];
  try {
    const { catalog, counts } = buildCatalog(files);
    const own = counts[counts.length - 1];
    print(
      command,
      !!options.json,
      { valid: true, file, providers: own.providers, tasks: own.tasks, version: catalog.version },
      () => `${file} is valid: ${own.providers} providers, ${own.tasks} tasks (catalog version ${catalog.version} with the built-in catalog)`,
    );
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    const invocation = invocationOf(command);
    // Every problem, on the one stderr line every failing command prints.
    if (options.json) print(command, true, { valid: false, file, problems: error.problems });
    else invocation.stderr.write(`gateway: ${printable(error.problems.join('; '))}\n`);
    invocation.exitCode = 1;
  }
}
