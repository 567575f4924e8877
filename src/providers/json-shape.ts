const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Where the scanner is: what the next significant byte may start. */
const enum Expect {
  Value,
  Key,
  /** A value has started (a scalar's later bytes, or after a string or a closed container). */
  Nothing,
}

/**
 * Counts the values of a JSON text and how deep it nests, as its bytes arrive, without parsing it: an answer
 * too large to hold is refused before JSON.parse builds it (a 10 MiB `[{},{},...]` is three million objects).
 * It follows strings (escapes included), containers and separators; it does not validate the text, which
 * JSON.parse does afterwards. `feed` returns the limit the text went past ("nested deeper than 64 levels",
 * "more than 100000 values"), or undefined while it is within both.
 */
export class JsonShape {
  private values = 0;
  /** One entry per open container: true for objects. */
  private readonly open: boolean[] = [];
  private expect = Expect.Value;
  private inString = false;
  private escaped = false;
  /** The next backslash of the chunk being fed at or after the last search (-1: none left), so each is searched once. */
  private backslashAt = -1;
  private backslashFrom = Number.POSITIVE_INFINITY;

  constructor(
    private readonly maxDepth: number,
    private readonly maxValues: number,
  ) {}

  feed(bytes: Uint8Array): string | undefined {
    const { length } = bytes;
    let at = 0;
    this.backslashFrom = Number.POSITIVE_INFINITY;
    while (at < length) {
      if (this.inString) {
        at = this.skipString(bytes, at);
        continue;
      }
      const byte = bytes[at++];
      if (isWhitespace(byte)) continue;
      if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        this.open.pop();
        this.expect = Expect.Nothing;
      } else if (byte === COMMA) {
        this.expect = this.open[this.open.length - 1] ? Expect.Key : Expect.Value;
      } else if (byte === COLON) {
        this.expect = Expect.Value;
      } else if (byte === QUOTE) {
        if (this.expect === Expect.Value && ++this.values > this.maxValues) return `more than ${this.maxValues} values`;
        this.expect = Expect.Nothing;
        this.inString = true;
      } else if (this.expect === Expect.Value) {
        if (++this.values > this.maxValues) return `more than ${this.maxValues} values`;
        this.expect = Expect.Nothing;
        if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
          if (this.open.length >= this.maxDepth) return `nested deeper than ${this.maxDepth} levels`;
          this.open.push(byte === OPEN_OBJECT);
          this.expect = byte === OPEN_OBJECT ? Expect.Key : Expect.Value;
        }
      }
    }
    return undefined;
  }

  private nextBackslash(bytes: Uint8Array, at: number): number {
    if (at < this.backslashFrom || (this.backslashAt !== -1 && this.backslashAt < at)) {
      this.backslashAt = bytes.indexOf(BACKSLASH, at);
      this.backslashFrom = at;
    }
    return this.backslashAt;
  }

  /** Past the string's bytes up to its closing quote (or the end of the chunk); escapes may span chunks. */
  private skipString(bytes: Uint8Array, from: number): number {
    let at = from;
    if (this.escaped) {
      this.escaped = false;
      at++;
    }
    while (at < bytes.length) {
      // Native searches jump over a string's ordinary bytes; only quotes and backslashes stop them.
      const quote = bytes.indexOf(QUOTE, at);
      const backslash = this.nextBackslash(bytes, at);
      if (backslash !== -1 && (quote === -1 || backslash < quote)) {
        if (backslash + 1 >= bytes.length) {
          this.escaped = true;
          return bytes.length;
        }
        at = backslash + 2;
      } else if (quote !== -1) {
        this.inString = false;
        return quote + 1;
      } else {
        return bytes.length;
      }
    }
    return at;
  }
}
