/** What a call's settlement writes to the call and to its capture, in bind order (settleCallWithCapture's). */
const COLUMNS = [
  'id', 'task_id', 'provider', 'connection_id', 'identity', 'outcome', 'http_status', 'error_code', 'quoted_micros', 'charged_micros',
  'latency_ms', 'updated_at', 'organization_id', 'input', 'output', 'input_bytes', 'output_bytes', 'truncated', 'size', 'created_at',
];
const SETTLED = COLUMNS.slice(1, 12);
const CAPTURED = COLUMNS.slice(12);

/**
 * SQLite settles a call and stores its capture in one statement: an insert into a view of each connection
 * (TEMP: nothing in the database file, no migration) whose trigger updates the call and inserts the capture.
 * A statement is atomic, so both still commit together or not at all, as one driver call (each a hop to
 * libuv's thread pool and back) instead of four (BEGIN, the two statements, COMMIT). Every SQLite
 * connection creates them as it opens; the trigger's tables are looked up when it runs.
 */
export const SQLITE_SETTLEMENT_VIEW = `CREATE TEMP VIEW IF NOT EXISTS call_settlements (${COLUMNS.join(', ')}) AS SELECT ${COLUMNS.map(() => 'NULL').join(', ')} WHERE 0;
CREATE TEMP TRIGGER IF NOT EXISTS call_settled INSTEAD OF INSERT ON call_settlements BEGIN
  UPDATE calls SET ${SETTLED.map((column) => `${column} = NEW.${column}`).join(', ')} WHERE id = NEW.id;
  INSERT INTO captures (call_id, ${CAPTURED.join(', ')}) VALUES (NEW.id, ${CAPTURED.map((column) => `NEW.${column}`).join(', ')});
END;`;

/** The settlement with its capture on SQLite; binds in COLUMNS' order. */
export const SQLITE_SETTLE_WITH_CAPTURE = `INSERT INTO call_settlements (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;
