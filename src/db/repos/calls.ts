import type { Database, Executor } from '../database.js';
import { CALL_COLUMNS, SQLITE_NO_CAPTURE, SQLITE_SETTLE_WITH_CAPTURE, SQLITE_START_COUNTED_CALL } from './sqlite-call-views.js';
import { principalSeenStatement } from './principals.js';
import { countHitsStatement, hitsInOrder, type Counting } from './rate-limits.js';
import { selectPage, whereClause, type Condition, type PageQuery } from '../pages.js';

export type CallOutcome = 'pending' | 'hit' | 'miss' | 'fault';

export interface CallRow {
  id: string;
  organization_id: string;
  task_id: string;
  provider: string;
  principal: string;
  token_id: string | null;
  connection_id: string | null;
  identity: string | null;
  outcome: CallOutcome;
  http_status: number | null;
  error_code: string | null;
  quoted_micros: number;
  charged_micros: number;
  latency_ms: number | null;
  tag: string | null;
  /** The approval the call ran under (docs/approvals.md), or the one it asked for when it answered approval_required. */
  approval_id: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * What a run received and answered (credentials already redacted), kept unless the run asked for zero retention.
 * Each side is JSON text as stored, already bounded (src/domain/audit/captured.ts).
 */
export interface CaptureRow {
  call_id: string;
  organization_id: string;
  input: string;
  /** null: the run answered no output (a fault or a miss). */
  output: string | null;
  /** The size of each side's whole JSON text, before any cut. */
  input_bytes: number;
  output_bytes: number | null;
  /** The sides stored cut short: JSON text of a list, `[]`, `["output"]`... */
  truncated: string;
  created_at: number;
}

/** A capture as a list page reads it: the stored text, never parsed on the way. */
export type StoredCapture = Omit<CaptureRow, 'organization_id'>;

const CAPTURE_COLUMNS = 'call_id, input, output, input_bytes, output_bytes, truncated, created_at';

/** The bytes a capture's row holds in its two texts: what a list page's byte budget counts. */
function storedSize(row: CaptureRow): number {
  return Buffer.byteLength(row.input) + (row.output === null ? 0 : Buffer.byteLength(row.output));
}

function captureValues(row: CaptureRow): unknown[] {
  return [row.organization_id, row.input, row.output, row.input_bytes, row.output_bytes, row.truncated, storedSize(row), row.created_at];
}

export interface CallFilters {
  task?: string;
  provider?: string;
  principal?: string;
  outcome?: CallOutcome;
  token?: string;
  connection?: string;
  tag?: string;
}

function callValues(row: CallRow): unknown[] {
  return [
    row.id, row.organization_id, row.task_id, row.provider, row.principal, row.token_id, row.connection_id, row.identity,
    row.outcome, row.http_status, row.error_code, row.quoted_micros, row.charged_micros, row.latency_ms, row.tag,
    row.approval_id, row.created_at, row.updated_at,
  ];
}

const CALL_COLUMN_COUNT = CALL_COLUMNS.split(', ').length;

/** `$first, $first + 1, ...`: the binds of the call columns. */
const callParams = (first: number) => Array.from({ length: CALL_COLUMN_COUNT }, (_, i) => `$${first + i}`).join(', ');

/**
 * Writes a call as it ends without an upstream call (`miss`), or as it starts (`pending`): the row is settled
 * before the run answers, and that durable commit makes this one durable too, so the insert need not wait for
 * its own disk flush.
 */
export async function insertCall(db: Database, row: CallRow, pending = false): Promise<void> {
  await (pending ? db.executeRelaxed : db.execute)(`INSERT INTO calls (${CALL_COLUMNS}) VALUES (${callParams(1)})`, callValues(row));
}

/** A run's rate-limit counters, each bucket with its allowance: the run goes on only if none is exceeded. */
export interface CountedStart extends Counting {
  limits: number[];
}

/**
 * A pending call started together with its run's rate-limit count (and, when `principalSeen`, the principal's
 * last use): every counter counts, and the call row and principal are written only when no counter went past its
 * allowance. One statement, one wait: a WITH on Postgres, an insert into a view whose trigger writes on SQLite
 * (sqlite-call-views.ts). Returns the counters' totals in bucket order; committed like insertCall's pending row
 * (settled durably before the run answers).
 */
export async function startCountedCall(db: Database, row: CallRow, counting: CountedStart, principalSeen: boolean): Promise<number[]> {
  if (db.dialect === 'sqlite') {
    const counters = JSON.stringify(counting.buckets.map((bucket, i) => [bucket, counting.limits[i]]));
    const [{ counted }] = await db.selectRelaxed<{ counted: string }>(SQLITE_START_COUNTED_CALL, [counting.windowStart, counters, principalSeen, ...callValues(row)]);
    return hitsInOrder(counting.buckets, (JSON.parse(counted) as Array<[string, number]>).map(([bucket, hits]) => ({ bucket, hits })));
  }
  const bind = [counting.windowStart, ...counting.buckets, ...counting.buckets.flatMap((bucket, i) => [bucket, counting.limits[i]]), ...callValues(row)];
  if (principalSeen) bind.push(row.organization_id, row.principal, row.created_at);
  return hitsInOrder(counting.buckets, await db.selectRelaxed<{ bucket: string; hits: unknown }>(startCallText(counting.buckets.length, principalSeen), bind));
}

/** startCountedCall's Postgres statement, by number of counters and whether the principal is written: built once each. */
const startTexts = new Map<string, string>();

function startCallText(counters: number, principalSeen: boolean): string {
  const key = `${counters} ${principalSeen}`;
  let text = startTexts.get(key);
  if (text) return text;
  const count = countHitsStatement({ buckets: Array<string>(counters).fill(''), windowStart: 0 }).sql;
  // Binds after the counter's: a (bucket, allowance) pair per counter, the call's columns, the principal's.
  const withinFirst = counters + 2;
  const callFirst = withinFirst + 2 * counters;
  const within = `NOT EXISTS (SELECT 1 FROM counted WHERE ${Array.from({ length: counters }, (_, i) => `(bucket = $${withinFirst + 2 * i} AND hits > $${withinFirst + 2 * i + 1})`).join(' OR ')})`;
  const seen = principalSeen ? `, seen AS (${principalSeenStatement('', '', 0, 'EXISTS (SELECT 1 FROM started)', callFirst + CALL_COLUMN_COUNT).sql})` : '';
  text = `WITH counted AS (${count}),
            started AS (INSERT INTO calls (${CALL_COLUMNS}) SELECT ${callParams(callFirst)} WHERE ${within} RETURNING id)${seen}
       SELECT bucket, hits FROM counted`;
  startTexts.set(key, text);
  return text;
}

export type CallSettlement = Pick<
  CallRow,
  'task_id' | 'provider' | 'connection_id' | 'identity' | 'outcome' | 'http_status' | 'error_code' | 'quoted_micros' | 'charged_micros' | 'latency_ms' | 'updated_at'
>;

/** The end of a pending call: the route that answered (or failed last), its outcome and its charge. */
const SETTLE = `UPDATE calls SET task_id = $2, provider = $3, connection_id = $4, identity = $5, outcome = $6, http_status = $7,
            error_code = $8, quoted_micros = $9, charged_micros = $10, latency_ms = $11, updated_at = $12
      WHERE id = $1`;

const INSERT_CAPTURE = `INSERT INTO captures (call_id, organization_id, input, output, input_bytes, output_bytes, truncated, size, created_at)`;

/** On Postgres, the connection's last use written in the settlement's statement (binds: $4 the connection, $12 the time). */
const TOUCH_CONNECTION = 'UPDATE connections SET last_used_at = $12 WHERE id = $4 AND EXISTS (SELECT 1 FROM settled)';

/**
 * Settles a call and stores its capture (null: zero retention, none kept), and, when `connectionUsed`, moves the
 * connection's last use (`connection_id`) to the settlement's time: committed together or not at all, in one
 * statement, on Postgres a WITH, on SQLite an insert into a view whose trigger writes (sqlite-call-views.ts).
 */
export async function settleCallWithCapture(db: Database, id: string, s: CallSettlement, capture: CaptureRow | null, connectionUsed = false): Promise<void> {
  const settlement = [id, s.task_id, s.provider, s.connection_id, s.identity, s.outcome, s.http_status, s.error_code, s.quoted_micros,
    s.charged_micros, s.latency_ms, s.updated_at];
  if (capture === null && !connectionUsed) {
    await db.execute(SETTLE, settlement);
  } else if (db.dialect === 'sqlite') {
    const captured = capture === null ? SQLITE_NO_CAPTURE : captureValues(capture);
    await db.execute(SQLITE_SETTLE_WITH_CAPTURE, [...settlement, ...captured, connectionUsed]);
  } else if (capture === null) {
    await db.execute(`WITH settled AS (${SETTLE} RETURNING id) ${TOUCH_CONNECTION}`, settlement);
  } else {
    const touched = connectionUsed ? `, touched AS (${TOUCH_CONNECTION})` : '';
    await db.execute(
      `WITH settled AS (${SETTLE} RETURNING id)${touched} ${INSERT_CAPTURE} SELECT id, $13, $14, $15, $16, $17, $18, $19, $20 FROM settled`,
      [...settlement, ...captureValues(capture)],
    );
  }
}

export async function insertCapture(db: Executor, row: CaptureRow): Promise<void> {
  await db.execute(`${INSERT_CAPTURE} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [row.call_id, ...captureValues(row)]);
}

function callConditions(organizationId: string, filters: CallFilters): Condition[] {
  const conditions: Condition[] = [['organization_id = ?', organizationId]];
  const columns: Array<[keyof CallFilters, string]> = [
    ['task', 'task_id'], ['provider', 'provider'], ['principal', 'principal'], ['outcome', 'outcome'],
    ['token', 'token_id'], ['connection', 'connection_id'], ['tag', 'tag'],
  ];
  for (const [filter, column] of columns) {
    if (filters[filter] !== undefined) conditions.push([`${column} = ?`, filters[filter]]);
  }
  return conditions;
}

export function pageCalls(db: Executor, organizationId: string, filters: CallFilters, page: PageQuery): Promise<CallRow[]> {
  return selectPage<CallRow>(db, 'calls', callConditions(organizationId, filters), page);
}

/** Calls newer than `afterId`, oldest first: what a live tail shows next. */
export function selectCallsAfter(db: Executor, organizationId: string, afterId: string | undefined, filters: CallFilters, limit: number): Promise<CallRow[]> {
  const conditions = callConditions(organizationId, filters);
  if (afterId !== undefined) conditions.push(['id > ?', afterId]);
  const { sql, bind } = whereClause(conditions);
  return db.select<CallRow>(`SELECT ${CALL_COLUMNS} FROM calls${sql} ORDER BY id ASC LIMIT ${limit}`, bind);
}

export async function findCall(db: Executor, organizationId: string, id: string): Promise<CallRow | null> {
  const rows = await db.select<CallRow>(`SELECT ${CALL_COLUMNS} FROM calls WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
  return rows[0] ?? null;
}

export async function findCapture(db: Executor, organizationId: string, callId: string): Promise<StoredCapture | null> {
  const [row] = await db.select<StoredCapture>(`SELECT ${CAPTURE_COLUMNS} FROM captures WHERE organization_id = $1 AND call_id = $2`, [organizationId, callId]);
  return row ?? null;
}

/** A page of captures, newest first, and whether more follow it. */
export interface CapturePage {
  rows: StoredCapture[];
  more: boolean;
}

/**
 * Captures page by call id (time-ordered like every id), at most `size` of them and no more than `maxBytes` of
 * stored text (the first capture of a page whatever its size). Which captures make the page is decided on the
 * index alone (organization_id, call_id, size); only those rows' texts are read: a page never loads more than itself.
 */
export async function pageCaptures(db: Executor, organizationId: string, { afterId, size }: PageQuery, maxBytes: number): Promise<CapturePage> {
  const conditions: Condition[] = [['organization_id = ?', organizationId]];
  if (afterId !== undefined) conditions.push(['call_id < ?', afterId]);
  const { sql, bind } = whereClause(conditions);
  const rows = await db.select<StoredCapture & { candidates: number }>(
    `SELECT ${CAPTURE_COLUMNS.split(', ').map((name) => `c.${name}`).join(', ')}, page.candidates
       FROM (SELECT call_id, ROW_NUMBER() OVER (ORDER BY call_id DESC) AS n, COUNT(*) OVER () AS candidates,
                    SUM(size) OVER (ORDER BY call_id DESC ROWS UNBOUNDED PRECEDING) AS running
               FROM (SELECT call_id, size FROM captures${sql} ORDER BY call_id DESC LIMIT ${size + 1}) recent) page
       JOIN captures c ON c.call_id = page.call_id
      WHERE page.n = 1 OR (page.n <= ${size} AND page.running <= $${bind.length + 1})
      ORDER BY c.call_id DESC`,
    [...bind, maxBytes],
  );
  const more = rows.length > 0 && Number(rows[0].candidates) > rows.length;
  return { rows: rows.map(({ candidates: _candidates, ...row }) => row), more };
}

/** The newest call of a connection, for its detail view. */
export async function lastCallOfConnection(db: Executor, organizationId: string, connectionId: string): Promise<CallRow | null> {
  const rows = await db.select<CallRow>(
    `SELECT ${CALL_COLUMNS} FROM calls WHERE organization_id = $1 AND connection_id = $2 ORDER BY id DESC LIMIT 1`,
    [organizationId, connectionId],
  );
  return rows[0] ?? null;
}

export interface DayTotals {
  day: number;
  calls: number;
  charged_micros: number;
}

/** Calls and charges per UTC day (days since the epoch) from `since` on. */
export async function sumCallsPerDay(db: Executor, organizationId: string, since: number, tokenId?: string): Promise<DayTotals[]> {
  const conditions: Condition[] = [['organization_id = ?', organizationId], ['created_at >= ?', since]];
  if (tokenId !== undefined) conditions.push(['token_id = ?', tokenId]);
  const { sql, bind } = whereClause(conditions);
  const rows = await db.select<{ day: unknown; calls: unknown; charged: unknown }>(
    `SELECT created_at / 86400000 AS day, COUNT(*) AS calls, SUM(charged_micros) AS charged FROM calls${sql} GROUP BY created_at / 86400000`,
    bind,
  );
  return rows.map((row) => ({ day: Number(row.day), calls: Number(row.calls), charged_micros: Number(row.charged ?? 0) }));
}

export interface RouteObservation {
  outcome: CallOutcome;
  latency_ms: number | null;
}

/** Recent settled calls of a task, newest first, across organizations: a provider's speed and reliability are the same for all. */
export function recentObservations(db: Executor, taskId: string, since: number, limit: number): Promise<RouteObservation[]> {
  return db.select<RouteObservation>(
    `SELECT outcome, latency_ms FROM calls WHERE task_id = $1 AND created_at >= $2 AND outcome IN ('hit', 'fault')
      ORDER BY created_at DESC LIMIT ${limit}`,
    [taskId, since],
  );
}

/** Calls left `pending` by a process that stopped mid-call become faults. */
export function faultStalePendingCalls(db: Executor, startedBefore: number, now: number): Promise<number> {
  return db.execute(
    `UPDATE calls SET outcome = 'fault', error_code = 'upstream_error', http_status = 502, charged_micros = 0, updated_at = $2
      WHERE outcome = 'pending' AND created_at < $1`,
    [startedBefore, now],
  );
}
