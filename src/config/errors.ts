/** A configuration problem; the CLI prints its message as one line and exits 2. */
export class ConfigError extends Error {
  constructor(
    message: string,
    /** The path of the invalid key, when the problem is one key's value. */
    readonly key?: string[],
  ) {
    super(message);
  }
}
