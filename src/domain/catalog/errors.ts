/**
 * A catalog that does not load: every problem is one line naming the file and the path of the bad field,
 * e.g. `catalog/x.yaml: tasks[3].price_usd: must be greater than or equal to 0`.
 */
export class CatalogError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `${problems[0]} (and ${problems.length - 1} more ${problems.length === 2 ? 'problem' : 'problems'}; \`gateway catalog validate FILE\` lists all)`);
  }
}
