import { Option } from 'commander';

/** The options most admin commands share. */
export interface CommonOptions {
  json?: boolean;
  org?: string;
}

/** The --org option every organization-scoped admin command takes. */
export const orgOption = () => new Option('--org <name>', 'organization (optional when only one exists)');
