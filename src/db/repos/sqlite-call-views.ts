/**
 * SQLite writes each end of a run's call in one statement: an insert into a view of each connection (TEMP:
 * nothing in the database file, no migration) whose INSTEAD OF trigger makes the writes. A statement is
 * atomic, so they still commit together or not at all, as one driver call (each a hop to libuv's thread pool
 * and back) instead of one per statement plus BEGIN and COMMIT. Every SQLite connection creates the views as
 * it opens; a trigger's tables are looked up when it runs. Postgres does the same with one WITH statement each
 * (calls.ts).
 */

/** The columns of a call row, in insert order (calls.ts's CALL_COLUMNS). */
export const CALL_COLUMNS =
  'id, organization_id, task_id, provider, principal, token_id, connection_id, identity, outcome, http_status, error_code, quoted_micros, charged_micros, latency_ms, tag, approval_id, created_at, updated_at';

const viewOf = (name: string, columns: string[]) => `CREATE TEMP VIEW IF NOT EXISTS ${name} (${columns.join(', ')}) AS SELECT ${columns.map(() => 'NULL').join(', ')} WHERE 0;`;
const binds = (columns: string[]) => columns.map((_, i) => `$${i + 1}`).join(', ');
const fromNew = (columns: string[]) => columns.map((column) => `NEW.${column}`).join(', ');

/**
 * A call's start: its rate-limit counters (`counters`: JSON `[[bucket, allowance], ...]`) each count one hit in
 * the window, and the pending call and (when `principal_seen`) its principal's last use are written only when no
 * counter is past its allowance.
 */
const START_COLUMNS = ['window_start', 'counters', 'principal_seen', ...CALL_COLUMNS.split(', ')];
const counters = (source: string) => `json_each(${source}) AS counter JOIN rate_limit_counters ON bucket = json_extract(counter.value, '$[0]')`;
const COUNTED_STARTS = `${viewOf('counted_starts', START_COLUMNS)}
CREATE TEMP TRIGGER IF NOT EXISTS call_started INSTEAD OF INSERT ON counted_starts BEGIN
  INSERT INTO rate_limit_counters (bucket, window_start, hits) SELECT json_extract(value, '$[0]'), NEW.window_start, 1 FROM json_each(NEW.counters) WHERE TRUE
    ON CONFLICT (bucket) DO UPDATE SET hits = rate_limit_counters.hits + 1;
  INSERT INTO calls (${CALL_COLUMNS}) SELECT ${fromNew(CALL_COLUMNS.split(', '))}
    WHERE NOT EXISTS (SELECT 1 FROM ${counters('NEW.counters')} WHERE hits > json_extract(counter.value, '$[1]'));
  INSERT INTO principals (organization_id, principal, first_seen_at, last_seen_at)
    SELECT NEW.organization_id, NEW.principal, NEW.created_at, NEW.created_at WHERE NEW.principal_seen AND EXISTS (SELECT 1 FROM calls WHERE id = NEW.id)
    ON CONFLICT (organization_id, principal) DO UPDATE SET last_seen_at = excluded.last_seen_at WHERE principals.last_seen_at < excluded.last_seen_at;
END;`;

/**
 * The start in one statement, binds in START_COLUMNS' order. It answers the counters' totals after its own hit
 * as JSON `[[bucket, hits], ...]`: the RETURNING subquery runs once the trigger has written (the tests of
 * startCountedCall hold it to that).
 */
export const SQLITE_START_COUNTED_CALL = `INSERT INTO counted_starts (${START_COLUMNS.join(', ')}) VALUES (${binds(START_COLUMNS)})
  RETURNING (SELECT json_group_array(json_array(bucket, hits)) FROM ${counters('counters')}) AS counted`;

/**
 * A call's settlement, its capture (none when `input` is null: zero retention) and, when `connection_used`, its
 * connection's last use.
 */
const SETTLEMENT_COLUMNS = [
  'id', 'task_id', 'provider', 'connection_id', 'identity', 'outcome', 'http_status', 'error_code', 'quoted_micros', 'charged_micros',
  'latency_ms', 'updated_at', 'organization_id', 'input', 'output', 'input_bytes', 'output_bytes', 'truncated', 'size', 'created_at',
  'connection_used',
];
const SETTLED = SETTLEMENT_COLUMNS.slice(1, 12);
const CAPTURED = SETTLEMENT_COLUMNS.slice(12, 20);
const CALL_SETTLEMENTS = `${viewOf('call_settlements', SETTLEMENT_COLUMNS)}
CREATE TEMP TRIGGER IF NOT EXISTS call_settled INSTEAD OF INSERT ON call_settlements BEGIN
  UPDATE calls SET ${SETTLED.map((column) => `${column} = NEW.${column}`).join(', ')} WHERE id = NEW.id;
  INSERT INTO captures (call_id, ${CAPTURED.join(', ')}) SELECT NEW.id, ${fromNew(CAPTURED)} WHERE NEW.input IS NOT NULL;
  UPDATE connections SET last_used_at = NEW.updated_at WHERE NEW.connection_used AND id = NEW.connection_id;
END;`;

/** The settlement with its capture and its connection's use in one statement; binds in SETTLEMENT_COLUMNS' order. */
export const SQLITE_SETTLE_WITH_CAPTURE = `INSERT INTO call_settlements (${SETTLEMENT_COLUMNS.join(', ')}) VALUES (${binds(SETTLEMENT_COLUMNS)})`;

/** SQLITE_SETTLE_WITH_CAPTURE's capture binds when none is kept (zero retention): a null for each captured column. */
export const SQLITE_NO_CAPTURE: null[] = CAPTURED.map(() => null);

/** What every SQLite connection runs as it opens. */
export const SQLITE_CALL_VIEWS = `${COUNTED_STARTS}\n${CALL_SETTLEMENTS}`;
