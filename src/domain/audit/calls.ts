import { findCall, findCapture, pageCalls, pageCaptures, selectCallsAfter, type CallFilters } from '../../db/repos/calls.js';
import { GatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { pageQuery, toPage } from '../paging.js';
import { presentCall, presentCapture, type Call, type Capture } from './present.js';

export type { CallFilters } from '../../db/repos/calls.js';

/** GET /v1/calls: the organization's calls, newest first, filtered, 50 a page. */
export async function listCalls(
  gateway: Pick<Gateway, 'db'>,
  organizationId: string,
  filters: CallFilters,
  cursor?: string,
): Promise<{ calls: Call[]; next_cursor: string | null }> {
  const page = toPage(await pageCalls(gateway.db, organizationId, filters, pageQuery(cursor)), (row) => row.id);
  return { calls: page.items.map(presentCall), next_cursor: page.next_cursor };
}

/** The most calls one `callsSince` returns; a live tail asks again from the last one. */
export const CALLS_SINCE_LIMIT = 500;

/**
 * Calls started after the call `afterId` (all of them when undefined), oldest first, at most
 * CALLS_SINCE_LIMIT: what a live tail shows next. Still-pending calls are included with outcome
 * `pending`; read one again with getCall to see how it ended.
 */
export async function callsSince(gateway: Pick<Gateway, 'db'>, organizationId: string, afterId: string | undefined, filters: CallFilters): Promise<Call[]> {
  return (await selectCallsAfter(gateway.db, organizationId, afterId, filters, CALLS_SINCE_LIMIT)).map(presentCall);
}

export async function getCall(gateway: Pick<Gateway, 'db'>, organizationId: string, id: string): Promise<Call> {
  const row = await findCall(gateway.db, organizationId, id);
  if (!row) throw new GatewayError('call_not_found', `no call ${id} in this organization`);
  return presentCall(row);
}

/** A call's input and output; none exists for calls run under zero retention (or unknown calls). */
export async function getCapture(gateway: Pick<Gateway, 'db'>, organizationId: string, callId: string): Promise<Capture> {
  const row = await findCapture(gateway.db, organizationId, callId);
  if (!row) throw new GatewayError('capture_not_found', `no capture of call ${callId}: the call is unknown or ran with zero retention`);
  return presentCapture(row);
}

export async function listCaptures(
  gateway: Pick<Gateway, 'db'>,
  organizationId: string,
  cursor?: string,
): Promise<{ captures: Capture[]; next_cursor: string | null }> {
  const page = toPage(await pageCaptures(gateway.db, organizationId, pageQuery(cursor)), (row) => row.call_id);
  return { captures: page.items.map(presentCapture), next_cursor: page.next_cursor };
}
