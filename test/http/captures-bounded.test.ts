import { expect } from 'chai';
import { eachDialect, type Harness } from '../support/harness.js';

const CAPTURE_LIMIT = 1024;
const PAGE_BYTES = 16384;

/**
 * A run of builtin.json.extract on a string of `n` characters: the input's JSON text is
 * `{"document":"x...x","path":""}` (n + 25 bytes), the output's `{"path":"","found":true,"value":"x...x"}` (n + 35).
 */
async function extract(h: Harness, n: number): Promise<string> {
  const res = await h.request({ method: 'POST', url: '/v1/tasks/builtin.json.extract/run', payload: { document: 'x'.repeat(n), path: '' } });
  expect(res.statusCode, res.payload.slice(0, 300)).to.equal(200);
  return res.json.receipt.call_id;
}

async function capture(h: Harness, callId: string) {
  const res = await h.request({ method: 'GET', url: `/v1/calls/${callId}/capture` });
  expect(res.statusCode).to.equal(200);
  return res.json;
}

/** The bytes of the strings the database answers while `work` runs: what a request loaded. */
async function bytesLoaded(h: Harness, work: () => Promise<unknown>): Promise<number> {
  const { db } = h.gateway;
  const select = db.select;
  let bytes = 0;
  db.select = async (sql, bind) => {
    const rows = await select(sql, bind);
    for (const row of rows as Array<Record<string, unknown>>) {
      for (const value of Object.values(row)) if (typeof value === 'string') bytes += Buffer.byteLength(value);
    }
    return rows as never;
  };
  try {
    await work();
  } finally {
    db.select = select;
  }
  return bytes;
}

eachDialect(
  'captures: bounded when stored, listed by bytes as well as by count',
  (h) => {
    it(`stores a side whole up to limits.max_capture_bytes (${CAPTURE_LIMIT}) and, one byte more, the start of its JSON text that fits`, async () => {
      const whole = await capture(h(), await extract(h(), 989));
      expect(whole).to.deep.include({ input_bytes: 1014, output_bytes: CAPTURE_LIMIT, truncated: [] });
      expect(whole.output).to.deep.equal({ path: '', found: true, value: 'x'.repeat(989) });

      const outputCut = await capture(h(), await extract(h(), 999));
      expect(outputCut).to.deep.include({ input_bytes: CAPTURE_LIMIT, output_bytes: CAPTURE_LIMIT + 10, truncated: ['output'] });
      expect(outputCut.input).to.deep.equal({ document: 'x'.repeat(999), path: '' });
      expect(outputCut.output).to.be.a('string');
      expect(Buffer.byteLength(JSON.stringify(outputCut.output))).to.be.at.most(CAPTURE_LIMIT).and.above(CAPTURE_LIMIT - 16);
      expect(JSON.stringify({ path: '', found: true, value: 'x'.repeat(999) }).startsWith(outputCut.output)).to.equal(true);

      const inputCut = await capture(h(), await extract(h(), 1000));
      expect(inputCut).to.deep.include({ input_bytes: CAPTURE_LIMIT + 1, truncated: ['input', 'output'] });
      expect(JSON.stringify({ document: 'x'.repeat(1000), path: '' }).startsWith(inputCut.input)).to.equal(true);
    });

    it(`pages captures by limits.max_page_bytes (${PAGE_BYTES}) as well as by count, loading no more than the page`, async () => {
      // Each of these captures holds 1014 + 1024 bytes of text: eight make a page.
      const made: string[] = [];
      for (let i = 0; i < 12; i++) made.push(await extract(h(), 989));
      const seen: string[] = [];
      let cursor: string | null = null;
      const pages: number[] = [];
      do {
        const url: string = cursor === null ? '/v1/captures' : `/v1/captures?cursor=${cursor}`;
        let page: { json: { captures: Array<{ call_id: string; input: unknown; output: unknown }>; next_cursor: string | null } } | undefined;
        const loaded = await bytesLoaded(h(), async () => (page = await h().request({ method: 'GET', url })));
        const stored = page!.json.captures.reduce((sum, c) => sum + Buffer.byteLength(JSON.stringify(c.input)) + Buffer.byteLength(JSON.stringify(c.output)), 0);
        expect(stored, url).to.be.at.most(PAGE_BYTES);
        // The page's texts and a few short columns per capture, never the rows beyond it.
        expect(loaded, url).to.be.at.most(PAGE_BYTES + 100 * page!.json.captures.length);
        pages.push(page!.json.captures.length);
        seen.push(...page!.json.captures.map((c) => c.call_id));
        cursor = page!.json.next_cursor;
      } while (cursor !== null);
      expect(pages).to.deep.equal([8, 7]);
      expect(seen.slice(0, 12)).to.deep.equal([...made].reverse());
      expect(new Set(seen).size).to.equal(seen.length);
    });
  },
  { config: { limits: { max_capture_bytes: CAPTURE_LIMIT, max_page_bytes: PAGE_BYTES } } },
);
