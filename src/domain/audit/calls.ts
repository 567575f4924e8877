import { findCall, findCapture, pageCalls, pageCaptures, selectCallsAfter, type CallFilters } from '../../db/repos/calls.js';
import { GatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { oneAtATime } from '../one-at-a-time.js';
import { encodeCursor, pageQuery, toPage } from '../paging.js';
import { captureJson, presentCall, type Call } from './present.js';

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

/**
 * Reads of captures, the largest records there are, run one at a time per organization in each process, each
 * followed by a rest nine times as long as it took: an organization reading them as fast as it can holds at
 * most a tenth of a process's time, beside every other organization's requests. Internal safety, not a limit.
 */
const CAPTURE_READ_REST = 9;
const captureReads = oneAtATime<string>(CAPTURE_READ_REST);

/**
 * A call's input and output, as the JSON text of the Capture record; none exists for calls run under zero
 * retention (or unknown calls).
 */
export function getCapture(gateway: Pick<Gateway, 'db'>, organizationId: string, callId: string): Promise<string> {
  return captureReads(organizationId, async () => {
    const row = await findCapture(gateway.db, organizationId, callId);
    if (!row) throw new GatewayError('capture_not_found', `no capture of call ${callId}: the call is unknown or ran with zero retention`);
    return captureJson(row);
  });
}

/**
 * GET /v1/captures, as the JSON text of the CaptureList record: newest first, 50 a page and no more than
 * limits.max_page_bytes of captured text (at least one capture).
 */
export function listCaptures(gateway: Pick<Gateway, 'config' | 'db'>, organizationId: string, cursor?: string): Promise<string> {
  const page = pageQuery(cursor);
  return captureReads(organizationId, async () => {
    const { rows, more } = await pageCaptures(gateway.db, organizationId, page, gateway.config.limits.max_page_bytes);
    const next = more ? encodeCursor(rows[rows.length - 1].call_id) : null;
    return `{"captures":[${rows.map(captureJson).join(',')}],"next_cursor":${JSON.stringify(next)}}`;
  });
}
