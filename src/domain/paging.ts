import type { PageQuery } from '../db/pages.js';
import { invalidInput } from './errors.js';

export const PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** Cursors are opaque to clients: the id of the last row shown, wrapped so it is not mistaken for an id. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(`c1:${lastId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!decoded.startsWith('c1:') || decoded.length < 4) {
    throw invalidInput('cursor is not one this service returned', [{ name: 'cursor', reason: 'unknown cursor' }]);
  }
  return decoded.slice(3);
}

/** The page a list request's cursor asks for, the API's page size. */
export function pageQuery(cursor: string | undefined): PageQuery {
  return { afterId: decodeCursor(cursor), size: PAGE_SIZE };
}

/** Rows fetched with one extra beyond the page size tell whether another page exists. */
export function toPage<T>(rows: T[], idOf: (row: T) => string, size = PAGE_SIZE): Page<T> {
  const items = rows.slice(0, size);
  return { items, next_cursor: rows.length > size ? encodeCursor(idOf(items[items.length - 1])) : null };
}
