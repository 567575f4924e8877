import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

function holderAlive(lockFile: string): boolean {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * SQLite has no advisory locks, and umzug's statements cannot share one transaction, so concurrent
 * starts on one file take turns through a lock file beside it holding the owner's pid. A lock whose
 * process has died is taken over, so a crash never blocks the next start.
 */
export async function withFileLock<T>(lockFile: string, work: () => Promise<T>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, String(process.pid));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!holderAlive(lockFile)) {
        try {
          unlinkSync(lockFile);
        } catch {
          // another waiter removed it first
        }
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the migration lock ${lockFile}`);
      await sleep(50);
    }
  }
  try {
    return await work();
  } finally {
    closeSync(fd);
    unlinkSync(lockFile);
  }
}
