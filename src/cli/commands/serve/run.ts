import { createServer as createNetServer } from 'node:net';
import type { Command } from 'commander';
import type { InitialOwnerKey } from '../../../app/owner-key.js';
import { ListenFailed, serveGateway } from '../../../app/serve.js';
import { configFor } from '../../context.js';
import { CommandFailure } from '../../errors.js';
import { invocationOf } from '../../invocation.js';

interface ServeOptions {
  port?: string;
  host?: string;
  migrate: boolean;
}

export async function run(options: ServeOptions, command: Command): Promise<void> {
  const server: Record<string, unknown> = {};
  if (options.port !== undefined) server.port = options.port;
  if (options.host !== undefined) server.host = options.host;
  let config = configFor(command, Object.keys(server).length ? { server } : undefined);
  // Port 0 picks a free port up front, so the derived public URL names the real one; it stays held until just
  // before the gateway binds it, so another process cannot take it while the catalog and database load.
  let held: HeldPort | undefined;
  if (config.server.port === 0) {
    held = await holdFreePort(config.server.host);
    config = configFor(command, { server: { ...server, port: held.port } });
  }

  // Handlers go in before anything is printed: a signal that finds none kills the process outright.
  let stopRequested: ((signal: string) => void) | undefined;
  const requested = new Promise<string>((resolve) => (stopRequested = resolve));
  const onSignal = (signal: string) => stopRequested!(signal);
  process.once('SIGTERM', onSignal).once('SIGINT', onSignal);
  try {
    const serving = await serveGateway(config, { migrate: options.migrate, beforeListen: async () => held?.release() }).catch((error: unknown) => {
      throw (error instanceof ListenFailed && listenFailure(error.code, config.server.host, config.server.port)) || error;
    });
    const { stdout } = invocationOf(command);
    if (serving.ownerKey) stdout.write(ownerKeyNotice(serving.ownerKey));
    stdout.write(`gateway listening on ${serving.uri} (public URL ${config.server.public_url})\n`);
    await serving.stop(await requested);
  } finally {
    await held?.release();
    process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
  }
}

interface HeldPort {
  port: number;
  release(): Promise<void>;
}

/** A free port, held by a listener of its own until released. */
function holdFreePort(host: string): Promise<HeldPort> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      resolve({ port, release: () => new Promise<void>((released) => probe.close(() => released())) });
    });
  });
}

/** The first run's key, and where it is kept: a key file of an earlier first run is never overwritten. */
function ownerKeyNotice({ key, file, kept }: InitialOwnerKey): string {
  const where = file
    ? `also written to ${file}, mode 0600${kept.length ? `; ${kept.join(' and ')} is another database's and was kept` : ''}`
    : `not written to a file: ${kept.join(' and ')} already exist and are never overwritten; save it now`;
  return `Created organization "default" with an owner key. It is shown only this once\n(${where}):\n\n  ${key}\n\n`;
}

/** A port the gateway cannot listen on, said as what to do about it. */
function listenFailure(code: string | undefined, host: string, port: number): CommandFailure | null {
  if (code === 'EADDRINUSE') return new CommandFailure(`port ${port} on ${host} is already in use; pick another with --port (or server.port)`);
  if (code === 'EACCES') return new CommandFailure(`not allowed to listen on port ${port} on ${host}; pick one above 1023 with --port (or server.port)`);
  if (code === 'EADDRNOTAVAIL') return new CommandFailure(`${host} is not an address of this machine; bind another with --host (or server.host)`);
  return null;
}
