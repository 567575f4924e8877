import type { Gateway } from './gateway.js';
import { pendingCallSweep } from './run/sweep.js';
import { expiringScanTask } from './webhooks/expiring.js';
import { webhookDeliveryTask } from './webhooks/worker.js';

/** Work a `serve` process runs beside the HTTP server (sweeps at start, periodic scans, delivery workers). */
export interface BackgroundTask {
  name: string;
  start(gateway: Gateway): Promise<{ stop(): Promise<void> }>;
}

/** Later features add their task here; each starts when `serve` starts and stops before the database closes. */
export const backgroundTasks: BackgroundTask[] = [pendingCallSweep, webhookDeliveryTask, expiringScanTask];

export async function startBackground(gateway: Gateway): Promise<{ stop(): Promise<void> }> {
  const running: Array<{ stop(): Promise<void> }> = [];
  for (const task of backgroundTasks) running.push(await task.start(gateway));
  return {
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
    },
  };
}
