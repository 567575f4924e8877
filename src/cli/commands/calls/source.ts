import { CALLS_SINCE_LIMIT, callsSince, getCall, listCalls, type CallFilters } from '../../../domain/audit/calls.js';
import type { Call } from '../../../domain/audit/present.js';
import { GatewayError } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import type { CallSource } from '../../ui/feed.js';

/** The tail's CallSource over the organization's calls in the database. */
export function databaseSource(gateway: Gateway, organizationId: string, filters: CallFilters): CallSource<Call> {
  return {
    recent: async () => (await listCalls(gateway, organizationId, filters)).calls,
    async since(afterId) {
      const calls: Call[] = [];
      for (let from = afterId; ; ) {
        const page = await callsSince(gateway, organizationId, from, filters);
        calls.push(...page);
        if (page.length < CALLS_SINCE_LIMIT) return calls;
        from = page[page.length - 1].id;
      }
    },
    async current(ids) {
      const calls = await Promise.all(
        ids.map((id) =>
          getCall(gateway, organizationId, id).catch((error: unknown) => {
            if (error instanceof GatewayError && error.code === 'call_not_found') return null;
            throw error;
          }),
        ),
      );
      return calls.filter((call): call is Call => call !== null);
    },
  };
}
