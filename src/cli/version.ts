import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/load.js';

/** The installed package's version, read when asked: the same file whether the CLI runs from dist/ or the sources. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** `gateway --version` prints the version; with `--json` anywhere on the line, {"version": ...}. */
export function printVersion(argv: string[]): never {
  const version = packageVersion();
  process.stdout.write(argv.includes('--json') ? `${JSON.stringify({ version })}\n` : `${version}\n`);
  process.exit(0);
}
