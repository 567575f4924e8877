import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  // The lock appears with its pid already inside (written aside, then hard-linked into place), so a
  // waiter never reads an empty lock and mistakes a live holder for a dead one.
  const candidate = `${lockFile}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(candidate, String(process.pid), { mode: 0o600 });
  try {
    for (;;) {
      try {
        linkSync(candidate, lockFile);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        if (!holderAlive(lockFile)) {
          rmSync(lockFile, { force: true });
          continue;
        }
        if (Date.now() > deadline) throw new Error(`timed out waiting for the migration lock ${lockFile}`);
        await sleep(50);
      }
    }
  } finally {
    rmSync(candidate, { force: true });
  }
  try {
    return await work();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
