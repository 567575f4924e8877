import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/package-root.js';

/** The installed package's version, read when asked: the same file whether the CLI runs from dist/ or the sources. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** What `gateway --version` prints; with `--json` anywhere on the line, {"version": ...}. */
export function versionText(argv: string[]): string {
  const version = packageVersion();
  return argv.includes('--json') ? JSON.stringify({ version }) : version;
}
