import type { Migration } from '../migrator.js';
import { column } from './columns.js';

/** What hosted pages call an organization ("Acme"); organizations made before it are called by their name. */
export const up: Migration = async ({ context: qi }) => {
  await qi.addColumn('organizations', 'display_name', { ...column.text(100), defaultValue: '' });
  await qi.sequelize.query('UPDATE organizations SET display_name = name');
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeColumn('organizations', 'display_name');
};
