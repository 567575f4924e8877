import type { Command } from 'commander';
import type { RedirectAllowlist } from '../../../domain/redirect-uris.js';
import { print } from '../../output.js';

/** Every redirect-uris command answers with the whole list as it now stands. */
export function printAllowlist(command: Command, json: boolean, allowlist: RedirectAllowlist): void {
  print(command, json, allowlist, () => (allowlist.redirect_uris.length ? allowlist.redirect_uris.join('\n') : '(no redirect URIs allowed)'));
}
