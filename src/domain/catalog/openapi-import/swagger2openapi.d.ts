/** The part of swagger2openapi the importer uses (the package ships no types). */
declare module 'swagger2openapi' {
  interface ConvertOptions {
    /** Fix small errors of the source rather than refuse it. */
    patch?: boolean;
    /** Warn rather than refuse where the source breaks the rules. */
    warnOnly?: boolean;
    /** Resolve external references (never wanted here: nothing is downloaded). */
    resolve?: boolean;
  }
  const swagger2openapi: { convertObj(swagger: unknown, options: ConvertOptions): Promise<{ openapi: unknown }> };
  export default swagger2openapi;
}
