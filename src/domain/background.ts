import { deleteEndedConnectSessions } from './consent/sessions.js';
import type { Gateway } from './gateway.js';
import { pendingCallSweep } from './run/sweep.js';
import { expiringScanTask } from './webhooks/expiring.js';
import { webhookDeliveryTask } from './webhooks/worker.js';

/** Work a `serve` process runs beside the HTTP server (sweeps at start, periodic scans, delivery workers). */
export interface BackgroundTask {
  name: string;
  start(gateway: Gateway): Promise<{ stop(): Promise<void> }>;
}

/**
 * A task that does `work` when `serve` starts and every `intervalMs` after. A failed round is logged
 * (its error's name only) and the next one runs as planned.
 */
export function periodicTask(name: string, intervalMs: number, work: (gateway: Gateway) => Promise<void>): BackgroundTask {
  return {
    name,
    async start(gateway) {
      const round = () => work(gateway).catch((err: Error) => gateway.log.error({ err: { name: err.name }, task: name }, 'background task failed'));
      let running = round();
      const timer = setInterval(() => {
        running = running.then(round);
      }, intervalMs);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          await running;
        },
      };
    },
  };
}

/** Connect sessions that completed or expired more than 7 days ago are deleted, hourly. */
export const endedSessionCleanup = periodicTask('ended-connect-session-cleanup', 3_600_000, async (gateway) => {
  const deleted = await deleteEndedConnectSessions(gateway);
  if (deleted) gateway.log.info({ deleted }, 'ended connect sessions deleted');
});

/** Later features add their task here; each starts when `serve` starts and stops before the database closes. */
export const backgroundTasks: BackgroundTask[] = [pendingCallSweep, webhookDeliveryTask, expiringScanTask, endedSessionCleanup];

export async function startBackground(gateway: Gateway): Promise<{ stop(): Promise<void> }> {
  const running: Array<{ stop(): Promise<void> }> = [];
  for (const task of backgroundTasks) running.push(await task.start(gateway));
  return {
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
    },
  };
}
