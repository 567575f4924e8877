import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * CPU time (user + system, all threads) a process has used so far, in milliseconds, from
 * /proc/<pid>/stat: process.cpuUsage() only sees the calling process. Zero once the process is gone.
 */
export function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** utime + stime of a /proc stat file, in milliseconds; zero once its process or thread is gone. */
function statCpuMs(file: string): number {
  let stat: string;
  try {
    stat = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The threads of a node process as its CPU is told apart: node names every thread `node`, so only the main one is known. */
export type ThreadKind = 'main' | 'other';

/**
 * CPU time so far of each thread of a node process, keyed `<kind>:<tid>`: the main thread (JavaScript) and the
 * others (the libuv pool running SQLite's driver, V8's garbage collector and compiler). Threads that ended since
 * are missing, and what they used is lost to the comparison.
 */
export function threadCpuOf(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) threads.set(`${tid === String(pid) ? 'main' : 'other'}:${tid}`, statCpuMs(`/proc/${pid}/task/${tid}/stat`));
  return threads;
}

/** CPU used between two threadCpuOf readings, by thread kind. */
export function threadCpuBetween(before: Map<string, number>, after: Map<string, number>): Record<ThreadKind, number> {
  const total: Record<ThreadKind, number> = { main: 0, other: 0 };
  for (const [key, ms] of after) total[key.slice(0, key.indexOf(':')) as ThreadKind] += ms - (before.get(key) ?? 0);
  return total;
}

/** Total CPU of several processes, keyed by pid so a before/after pair can be compared pid by pid. */
export function cpuOf(pids: number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, cpuMs(pid)]));
}

/** CPU used between two readings; processes that appeared in between count from zero. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  return {
    cpus: cpuinfo.split('\n').filter((line) => line.startsWith('processor')).length,
    model: /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? 'unknown',
    node: process.version,
    load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  };
}
