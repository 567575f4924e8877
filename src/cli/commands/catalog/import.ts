import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { SLUG } from '../../../domain/catalog/schema.js';
import { catalogJson, ImportError, importOpenApi, operationLabel } from '../../../domain/catalog/openapi-import/index.js';
import { CommandFailure } from '../../errors.js';
import { invocationOf } from '../../invocation.js';
import { formatTable, say } from '../../output.js';

interface ImportCommandOptions {
  provider: string;
  name?: string;
  baseUrl?: string;
  include: string[];
  exclude: string[];
  output?: string;
  dryRun?: boolean;
}

async function readSource(file: string, command: Command): Promise<string> {
  if (file !== '-') {
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      throw new CommandFailure(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of invocationOf(command).stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An OpenAPI 3.0/3.1 or Swagger 2.0 description as a catalog file (docs/catalog.md, "Importing an OpenAPI
 * description"). The importer and its parsers load only when this command runs.
 */
export async function run(file: string, options: ImportCommandOptions, command: Command): Promise<void> {
  if (!SLUG.test(options.provider)) command.error(`error: option '--provider <slug>' argument '${options.provider}' is invalid. It must be a slug of a-z, 0-9 and - (at most 100 characters)`, { exitCode: 2 });
  const text = await readSource(file, command);
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
    say(command, `${formatTable(rows)}\n${summary(imported.tasks.length, imported.skipped.length, imported.excluded)}`);
    return;
  }
  if (!imported.tasks.length) {
    const reasons = [...new Set(imported.skipped.map(({ reason }) => reason))].slice(0, 3).join('; ');
    throw new CommandFailure(`${label}: no operation the gateway can run (${imported.skipped.length} skipped${reasons ? `: ${reasons}` : ''}); nothing written`);
  }
  if (!options.output) {
    // The catalog file itself, byte for byte: its comments and strings are the description's, as written.
    invocationOf(command).stdout.write(result.yaml);
    return;
  }
  try {
    await writeFile(options.output, /\.json$/i.test(options.output) ? catalogJson(imported) : result.yaml);
  } catch (err) {
    throw new CommandFailure(`cannot write ${options.output}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  say(command, `${options.output}: provider ${options.provider}, ${summary(imported.tasks.length, imported.skipped.length, imported.excluded)}${imported.skipped.length ? ' (--dry-run lists them)' : ''}`);
}

function summary(tasks: number, skipped: number, excluded: number): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `${plural(tasks, 'task')}, ${plural(skipped, 'operation')} skipped${excluded ? `, ${excluded} left out by --include/--exclude` : ''}`;
}
