import type { Migration } from '../migrator.js';

/**
 * Names compare case-insensitively ("Acme" is "acme"): the database keeps it, so two creations racing past the
 * lookup cannot both land. Names are ASCII (letters, digits, `.`, `-`, `_`), where both dialects' lower() agree.
 */
export const up: Migration = async ({ context: qi }) => {
  const [clashes] = (await qi.sequelize.query(
    'SELECT lower(name) AS name, COUNT(*) AS n FROM organizations GROUP BY lower(name) HAVING COUNT(*) > 1',
  )) as [Array<{ name: string }>, unknown];
  if (clashes.length > 0) {
    throw new Error(
      `organization names that differ only in case exist (${clashes.map((c) => c.name).join(', ')}); ` +
        'names compare case-insensitively: suspend and rename one of each by hand, then run gateway migrate again',
    );
  }
  await qi.sequelize.query('CREATE UNIQUE INDEX organizations_name_lower ON organizations (lower(name))');
};

export const down: Migration = async ({ context: qi }) => {
  await qi.sequelize.query('DROP INDEX organizations_name_lower');
};
