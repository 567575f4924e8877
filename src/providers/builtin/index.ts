import { extractJson } from './json.js';
import { base64Decode, base64Encode, hashText, slugify } from './text.js';
import { timeConvert, timeNow } from './time.js';
import { convertUnits } from './units.js';
import { generateUuids } from './uuid.js';

export type BuiltinHandler = (input: any) => unknown | Promise<unknown>;

/**
 * In-process handlers of the catalog's utility tasks (provider `builtin`), by the name a task gives in
 * `handler`. Input arrives already validated against the task's JSON Schema; a handler throws
 * invalid_input for what a schema cannot say (an unknown time zone, incompatible units).
 */
export const builtinHandlers: Record<string, BuiltinHandler> = {
  'uuid.generate': generateUuids,
  'time.now': timeNow,
  'time.convert': timeConvert,
  'text.hash': hashText,
  'text.slugify': slugify,
  'base64.encode': base64Encode,
  'base64.decode': base64Decode,
  'units.convert': convertUnits,
  'json.extract': extractJson,
};
