import type { Migration } from '../migrator.js';
import { column } from './columns.js';

/**
 * Captures are bounded when stored (docs/audit.md): each side's JSON text up to limits.max_capture_bytes,
 * past it a JSON string holding the start of that text. `input_bytes` and `output_bytes` keep each side's
 * whole size, `truncated` names the sides cut, and `size` (the bytes stored) lets a list page stop at its
 * byte budget reading only the index (organization_id, call_id, size).
 *
 * Captures stored before this migration are measured, and those over the default limit (65536 bytes) cut
 * to their first 16384 characters, which fit in it whatever they are, so no page ever reads an unbounded row.
 */
const DEFAULT_LIMIT = 65536;
const KEPT_CHARACTERS = 16384;

export const up: Migration = async ({ context: qi }) => {
  await qi.addColumn('captures', 'input_bytes', { ...column.time(), defaultValue: 0 });
  await qi.addColumn('captures', 'output_bytes', column.time(true));
  await qi.addColumn('captures', 'truncated', column.json('[]'));
  await qi.addColumn('captures', 'size', { ...column.time(), defaultValue: 0 });
  const sqlite = qi.sequelize.getDialect() === 'sqlite';
  const bytes = (name: string) => (sqlite ? `length(CAST(${name} AS BLOB))` : `octet_length(${name})`);
  const quotedStart = (name: string) => (sqlite ? `json_quote(substr(${name}, 1, ${KEPT_CHARACTERS}))` : `to_json(left(${name}, ${KEPT_CHARACTERS}))::text`);
  await qi.sequelize.query(`UPDATE captures SET input_bytes = ${bytes('input')}, output_bytes = ${bytes('output')}`);
  await qi.sequelize.query(
    `UPDATE captures SET
       truncated = CASE WHEN input_bytes > ${DEFAULT_LIMIT} AND output_bytes > ${DEFAULT_LIMIT} THEN '["input","output"]'
                        WHEN input_bytes > ${DEFAULT_LIMIT} THEN '["input"]' ELSE '["output"]' END,
       input = CASE WHEN input_bytes > ${DEFAULT_LIMIT} THEN ${quotedStart('input')} ELSE input END,
       output = CASE WHEN output_bytes > ${DEFAULT_LIMIT} THEN ${quotedStart('output')} ELSE output END
     WHERE input_bytes > ${DEFAULT_LIMIT} OR output_bytes > ${DEFAULT_LIMIT}`,
  );
  await qi.sequelize.query(`UPDATE captures SET size = ${bytes('input')} + COALESCE(${bytes('output')}, 0)`);
  await qi.removeIndex('captures', 'captures_org');
  await qi.addIndex('captures', ['organization_id', 'call_id', 'size'], { name: 'captures_page' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeIndex('captures', 'captures_page');
  await qi.addIndex('captures', ['organization_id', 'call_id'], { name: 'captures_org' });
  await qi.removeColumn('captures', 'size');
  await qi.removeColumn('captures', 'truncated');
  await qi.removeColumn('captures', 'output_bytes');
  await qi.removeColumn('captures', 'input_bytes');
};
