import { readFile, writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { SLUG } from '../../../domain/catalog/schema.js';
import { action, CommandFailure } from '../../errors.js';
import { formatTable } from '../../output.js';

const collect = (value: string, previous: string[]) => [...previous, value];

interface ImportCommandOptions {
  provider: string;
  name?: string;
  baseUrl?: string;
  include: string[];
  exclude: string[];
  output?: string;
  dryRun?: boolean;
}

async function readSource(file: string): Promise<string> {
  if (file !== '-') {
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      throw new CommandFailure(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An OpenAPI 3.0/3.1 or Swagger 2.0 description as a catalog file (docs/catalog.md, "Importing an OpenAPI
 * description"). The importer (and its parsers) load only when this command runs.
 */
export const importCommand = new Command('import')
  .description('turn an OpenAPI 3.x or Swagger 2.0 description (JSON or YAML; - for stdin) into a catalog file')
  .argument('<file>', 'the description, or - to read it from standard input')
  .requiredOption('--provider <slug>', 'the provider slug, first part of every task id')
  .option('--name <name>', "the provider's display name (default: the description's title)")
  .option('--base-url <url>', "where the provider lives (default: the description's first server)")
  .option('--include <pattern>', 'keep operations matching an operationId, tag or "METHOD /path" (* is a wildcard; repeatable)', collect, [])
  .option('--exclude <pattern>', 'leave out operations matching the same patterns (repeatable; wins over --include)', collect, [])
  .option('--output <file>', 'write the catalog file here, as JSON when it ends in .json (default: YAML on standard output)')
  .option('--dry-run', 'write nothing; print each operation kept or skipped, and why')
  .action(
    action(async (file: string, options: ImportCommandOptions, command: Command) => {
      if (!SLUG.test(options.provider)) command.error(`error: option '--provider <slug>' argument '${options.provider}' is invalid. It must be a slug of a-z, 0-9 and - (at most 100 characters)`, { exitCode: 2 });
      const { catalogJson, importOpenApi, ImportError, operationLabel } = await import('../../../domain/catalog/openapi-import/index.js');
      const text = await readSource(file);
      const label = file === '-' ? 'standard input' : file;
      let result;
      try {
        result = await importOpenApi(text, file === '-' ? undefined : file, {
          provider: options.provider,
          name: options.name,
          baseUrl: options.baseUrl,
          include: options.include,
          exclude: options.exclude,
        });
      } catch (err) {
        if (err instanceof ImportError) throw new CommandFailure(`${label} ${err.message}`);
        throw err;
      }
      const { imported } = result;
      if (options.dryRun) {
        const rows = [
          ...imported.tasks.map(({ operation, task }) => ({ operation: operationLabel(operation), result: task.id as string, reason: '' })),
          ...imported.skipped.map(({ operation, reason }) => ({ operation: operationLabel(operation), result: 'skipped', reason })),
        ].sort((a, b) => (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : 0));
        process.stdout.write(`${formatTable(rows)}\n${summary(imported.tasks.length, imported.skipped.length, imported.excluded)}\n`);
        return;
      }
      if (!imported.tasks.length) {
        const reasons = [...new Set(imported.skipped.map(({ reason }) => reason))].slice(0, 3).join('; ');
        throw new CommandFailure(`${label}: no operation the gateway can run (${imported.skipped.length} skipped${reasons ? `: ${reasons}` : ''}); nothing written`);
      }
      if (!options.output) {
        process.stdout.write(result.yaml);
        return;
      }
      try {
        await writeFile(options.output, /\.json$/i.test(options.output) ? catalogJson(imported) : result.yaml);
      } catch (err) {
        throw new CommandFailure(`cannot write ${options.output}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      process.stdout.write(`${options.output}: provider ${options.provider}, ${summary(imported.tasks.length, imported.skipped.length, imported.excluded)}${imported.skipped.length ? ' (--dry-run lists them)' : ''}\n`);
    }),
  );

function summary(tasks: number, skipped: number, excluded: number): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `${plural(tasks, 'task')}, ${plural(skipped, 'operation')} skipped${excluded ? `, ${excluded} left out by --include/--exclude` : ''}`;
}
