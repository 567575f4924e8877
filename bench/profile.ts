import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds of the monotonic clock (process.hrtime's), as the sample times are. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from: a package, node itself, or our own source. */
function origin(url: string): string {
  if (url === '') return '(native / gc / idle)';
  if (url.startsWith('node:')) return 'node core';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(src\/.*)$/.exec(url);
  return own ? own[1] : url;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Self time by package or source file, largest first. */
  byOrigin: Array<{ origin: string; percent: number }>;
  /** Self time by function, largest first. */
  byFunction: Array<{ frame: string; percent: number }>;
}

/** A stretch of the monotonic clock, in microseconds (process.hrtime.bigint() / 1000n). */
export interface ProfileWindow {
  fromMicros: number;
  toMicros: number;
}

/** Self time of the largest profile in `dir` (the main thread's), grouped two ways; only the samples within `window` when given. */
export function summariseProfile(dir: string, top = 15, window?: ProfileWindow): ProfileSummary {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  const file = files.map((name) => path.join(dir, name)).sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.fromMicros || at > window.toMicros)) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of self) {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    total += micros;
    const where = origin(frame.url);
    byOrigin.set(where, (byOrigin.get(where) ?? 0) + micros);
    const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const ranked = <K extends string>(map: Map<string, number>, key: K) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, micros]) => ({ [key]: name, percent: Math.round((1000 * micros) / total) / 10 }) as { [P in K]: string } & { percent: number });
  return { file, totalMs: Math.round(total / 1000), byOrigin: ranked(byOrigin, 'origin'), byFunction: ranked(byFunction, 'frame') };
}
