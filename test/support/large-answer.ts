import type { ServerResponse } from 'node:http';

const FILL = Buffer.alloc(64 * 1024, 'x');

/**
 * Answers a JSON string of exactly `bytes` bytes, in 64 KiB pieces made as they are sent (a test upstream
 * never holds a huge answer), with a content-length when `sized`, else chunked, at the pace the reader
 * takes them: a reader that stops reading stops the writing, and the answer never finishes.
 */
export function answerJsonString(res: ServerResponse, bytes: number, { sized }: { sized: boolean }): void {
  res.writeHead(200, { 'content-type': 'application/json', ...(sized ? { 'content-length': bytes } : {}) });
  res.write('"');
  let left = bytes - 2;
  const more = () => {
    while (left > 0 && !res.destroyed) {
      const chunk = FILL.subarray(0, Math.min(left, FILL.length));
      left -= chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end('"');
  };
  more();
}
