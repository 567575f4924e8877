import { Command } from 'commander';
import { orgOption } from '../../options.js';
import { load } from '../../invocation.js';

export const redirectUris = () =>
  new Command('redirect-uris')
    .description("manage the organization's connect callback allowlist")
    .addCommand(
      new Command('list')
        .description('show the connect callbacks the organization allows')
        .addOption(orgOption())
        .option('--json', 'print {redirect_uris}')
        .action(load(() => import('./list.js'))),
    )
    .addCommand(
      new Command('set')
        .description('replace the whole allowlist; one bad URI rejects all of them (--clear, and no URI, allows none)')
        .argument('[uris...]', 'https URLs without query or fragment (plain http only for localhost and 127.0.0.1)')
        .option('--clear', 'allow no connect callback at all')
        .addOption(orgOption())
        .option('--json', 'print {redirect_uris}')
        .action(load(() => import('./set.js'))),
    )
    .addCommand(
      new Command('add')
        .description('allow one more connect callback (already allowed: no change)')
        .argument('<uri>', 'https URL without query or fragment (plain http only for localhost and 127.0.0.1)')
        .addOption(orgOption())
        .option('--json', 'print {redirect_uris}')
        .action(load(() => import('./add.js'))),
    )
    .addCommand(
      new Command('remove')
        .description('stop allowing a connect callback')
        .argument('<uri>', 'an allowlisted URI (compared in canonical form)')
        .addOption(orgOption())
        .option('--json', 'print {redirect_uris}')
        .action(load(() => import('./remove.js'))),
    );
