import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed package's root (package.json, config/), whether the code runs from dist/ or the sources. */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
