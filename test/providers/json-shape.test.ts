import { expect } from 'chai';
import fc from 'fast-check';
import { JsonShape } from '../../src/providers/json-shape.js';

/** Values (containers and scalars) and nesting of a parsed JSON value, counted the plain way. */
function shapeOf(value: unknown, depth = 0): { values: number; depth: number } {
  if (typeof value !== 'object' || value === null) return { values: 1, depth };
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.reduce<{ values: number; depth: number }>(
    (total, item) => {
      const inner = shapeOf(item, depth + 1);
      return { values: total.values + inner.values, depth: Math.max(total.depth, inner.depth) };
    },
    { values: 1, depth: depth + 1 },
  );
}

/** Feeds `text` cut into pieces at `cuts`, as an answer arrives in chunks; the first limit passed, if any. */
function feed(text: string, maxDepth: number, maxValues: number, cuts: number[] = []): string | undefined {
  const bytes = Buffer.from(text);
  const shape = new JsonShape(maxDepth, maxValues);
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    const beyond = shape.feed(bytes.subarray(from, cut));
    if (beyond) return beyond;
    from = cut;
  }
  return undefined;
}

describe('JsonShape: counting an answer\'s values and nesting as its bytes arrive', () => {
  it('counts exactly what JSON.parse builds, however the bytes are cut', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.array(fc.nat(400), { maxLength: 8 }), (value, cuts) => {
        const text = JSON.stringify(value, null, cuts.length % 2 ? 1 : undefined);
        const { values, depth } = shapeOf(value);
        expect(feed(text, depth, values, cuts)).to.equal(undefined);
        expect(feed(text, depth, values - 1, cuts)).to.equal(`more than ${values - 1} values`);
        if (depth > 0) expect(feed(text, depth - 1, values, cuts)).to.equal(`nested deeper than ${depth - 1} levels`);
      }),
      { numRuns: 300 },
    );
  });

  it('is not fooled by brackets, quotes and backslashes inside strings, cut anywhere', () => {
    const text = JSON.stringify({ 'a"[{': ['\\"]}', '\\\\', '"', 'x\\u0022['], b: '}}]]' });
    for (let cut = 1; cut < text.length; cut++) {
      expect(feed(text, 2, 7, [cut]), `cut at ${cut}`).to.equal(undefined);
      expect(feed(text, 2, 6, [cut]), `cut at ${cut}`).to.equal('more than 6 values');
    }
  });

  it('stops at the limit without reading further', () => {
    const many = Buffer.from(`[${new Array(1_000_000).fill('{}').join(',')}]`);
    const shape = new JsonShape(64, 100_000);
    expect(shape.feed(many.subarray(0, 300_000))).to.equal('more than 100000 values');
    expect(new JsonShape(64, 100_000).feed(Buffer.from(`${'['.repeat(65)}${']'.repeat(65)}`))).to.equal('nested deeper than 64 levels');
  });
});
