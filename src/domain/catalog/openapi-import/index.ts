import { readDescription } from './document.js';
import { generateCatalog, type ImportedCatalog, type ImportOptions } from './generate.js';
import { catalogYaml } from './write.js';

export { ImportError } from './document.js';
export type { ImportedCatalog, ImportOptions, SkipCategory, SkippedOperation } from './generate.js';
export { catalogJson, operationLabel } from './write.js';

export interface ImportResult {
  imported: ImportedCatalog;
  /** What the description was: `swagger 2.0`, `openapi 3.0.3`, `openapi 3.1.0`. */
  format: string;
  /** The catalog file's text (YAML with comments). */
  yaml: string;
}

/**
 * `gateway catalog import`: an OpenAPI 3.0/3.1 or Swagger 2.0 description (its text; `file` is where it was
 * read, or undefined for standard input) as a catalog file. Throws ImportError when the description cannot be
 * read or has no provider URL; operations the gateway cannot run are listed in `imported.skipped`.
 */
export async function importOpenApi(text: string, file: string | undefined, options: ImportOptions): Promise<ImportResult> {
  const { document, format } = await readDescription(text, file);
  const imported = generateCatalog(document, options);
  return { imported, format, yaml: catalogYaml(imported, { file: file ?? 'standard input', format }) };
}
