import type { Server } from '@hapi/hapi';
import { invalidInput } from '../domain/errors.js';
import type { Gateway } from '../domain/gateway.js';
import { inspectJson, MAX_JSON_DEPTH } from '../domain/json-values.js';

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    /**
     * Levels a route's body wraps around the JSON it carries (a JSON-RPC request around a tool's
     * arguments): the nesting limit applies to that JSON, not to the wrapper.
     */
    jsonEnvelopeDepth?: number;
    /**
     * The body is a task input (a run's), which the run checks whole in one walk of its own (text, nesting,
     * values, named as the run names input fields): it is not walked here as well.
     */
    taskInputBody?: boolean;
  }
}

function isParsedJson(payload: unknown): payload is object {
  if (typeof payload !== 'object' || payload === null) return false;
  const prototype = Object.getPrototypeOf(payload);
  return Array.isArray(payload) || prototype === Object.prototype || prototype === null;
}

/**
 * A body nested deeper than the JSON limit, or holding more values than `limits.max_input_nodes`, is 400
 * invalid_input on every route, before validation or a handler walks it. Text inside bodies is the fields'
 * own rule (joi); a run's task input, which no schema of this layer describes, is checked by the run.
 */
export function rejectDeepBodies(server: Server, gateway: Pick<Gateway, 'config'>): void {
  const maxNodes = gateway.config.limits.max_input_nodes;
  server.ext('onPostAuth', (request, h) => {
    const settings = request.route.settings.plugins;
    if (settings?.taskInputBody || !isParsedJson(request.payload)) return h.continue;
    const envelope = settings?.jsonEnvelopeDepth ?? 0;
    const problem = inspectJson(request.payload, { text: false, maxDepth: MAX_JSON_DEPTH + envelope, maxNodes });
    if (!problem) return h.continue;
    const name = ['payload', ...problem.path].join('.');
    throw invalidInput(`${name} ${problem.reason}`, [{ name, reason: problem.reason }]);
  });
}
