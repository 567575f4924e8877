import path from 'node:path';
import { Command } from 'commander';
import { buildCatalog, builtinCatalogFiles, CatalogError } from '../../../domain/catalog/load.js';
import { action } from '../../errors.js';
import { print } from '../../output.js';

/**
 * Checks a self-hoster's catalog file as `serve` would load it: after the built-in catalog, so its tasks
 * may name built-in providers and its ids must not clash with built-in ones.
 */
export const validate = new Command('validate')
  .description('check a catalog file (JSON or YAML) against the format and the built-in catalog')
  .argument('<file>', 'catalog file to check')
  .option('--json', 'print {valid, file, ...} instead of text')
  .action(
    action(async (file: string, options: { json?: boolean }) => {
      const resolved = path.resolve(file);
      const files = [...builtinCatalogFiles().filter((builtin) => builtin !== resolved), file];
      try {
        const { catalog, counts } = buildCatalog(files);
        const own = counts[counts.length - 1];
        print(
          !!options.json,
          { valid: true, file, providers: own.providers, tasks: own.tasks, version: catalog.version },
          () => `${file} is valid: ${own.providers} providers, ${own.tasks} tasks (catalog version ${catalog.version} with the built-in catalog)`,
        );
      } catch (error) {
        if (!(error instanceof CatalogError)) throw error;
        // Every problem, on the one stderr line every failing command prints.
        if (options.json) print(true, { valid: false, file, problems: error.problems });
        else process.stderr.write(`gateway: ${error.problems.join('; ')}\n`);
        process.exitCode = 1;
      }
    }),
  );
