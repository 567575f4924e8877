import type { Server } from '@hapi/hapi';
import { invalidInput } from '../domain/errors.js';
import { findIllFormedValue, MAX_JSON_DEPTH } from '../domain/json-values.js';

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    /**
     * Levels a route's body wraps around the JSON it carries (a JSON-RPC request around a tool's
     * arguments): the nesting limit applies to that JSON, not to the wrapper.
     */
    jsonEnvelopeDepth?: number;
  }
}

function isParsedJson(payload: unknown): payload is object {
  if (typeof payload !== 'object' || payload === null) return false;
  const prototype = Object.getPrototypeOf(payload);
  return Array.isArray(payload) || prototype === Object.prototype || prototype === null;
}

/**
 * A body nested deeper than the JSON limit is 400 invalid_input on every route, before validation or a
 * handler walks it. Text inside bodies is the fields' own rule (joi), and a run's task input, which no
 * schema of this layer describes, is checked whole, text included, where the run reads it.
 */
export function rejectDeepBodies(server: Server): void {
  server.ext('onPostAuth', (request, h) => {
    if (!isParsedJson(request.payload)) return h.continue;
    const envelope = request.route.settings.plugins?.jsonEnvelopeDepth ?? 0;
    const deep = findIllFormedValue(request.payload, { text: false, maxDepth: MAX_JSON_DEPTH + envelope });
    if (!deep) return h.continue;
    const name = ['payload', ...deep.path].join('.');
    throw invalidInput(`${name} ${deep.reason}`, [{ name, reason: deep.reason }]);
  });
}
