import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * CPU time (user + system, all threads) a process has used so far, in milliseconds, from
 * /proc/<pid>/stat: process.cpuUsage() only sees the calling process. Zero once the process is gone.
 */
export function cpuMs(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
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
