import { Command } from 'commander';
import { load } from '../../invocation.js';

/** `suspend` and `resume` set the organization's status (orgs/status.ts). */
function statusCommand(name: 'suspend' | 'resume', description: string) {
  return new Command(name)
    .description(description)
    .argument('<name>', 'organization name')
    .option('--json', 'print the organization')
    .action(load(() => import('./status.js')));
}

export const orgs = () =>
  new Command('orgs')
    .description('manage organizations')
    .addCommand(
      new Command('create')
        .description('create an organization')
        .argument('<name>', 'organization name (letters, digits, . _ -)')
        .option('--display-name <text>', 'what hosted pages call it ("Acme"); the name until one is given')
        .option('--json', 'print {id, name}')
        .action(load(() => import('./create.js'))),
    )
    .addCommand(
      new Command('rename')
        .description('change what hosted pages call an organization (its name stays)')
        .argument('<name>', 'organization name')
        .requiredOption('--display-name <text>', 'the name hosted pages show, 1-100 characters on one line')
        .option('--json', 'print the organization')
        .action(load(() => import('./rename.js'))),
    )
    .addCommand(
      new Command('list')
        .description('list organizations')
        .option('--json', 'print {organizations}')
        .action(load(() => import('./list.js'))),
    )
    .addCommand(statusCommand('suspend', 'suspend an organization: its keys answer 403 no_active_organization'))
    .addCommand(statusCommand('resume', 'resume a suspended organization'))
    .addCommand(
      new Command('origins')
        .description('show, or with ORIGIN arguments replace, the origins trusted to call from a browser')
        .argument('<name>', 'organization name')
        .argument('[origins...]', 'origins such as https://app.example.com; none lists the current ones')
        .option('--clear', 'trust no origin')
        .option('--json', 'print the organization')
        .action(load(() => import('./origins.js'))),
    );
