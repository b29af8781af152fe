import closeWithGrace from 'close-with-grace';
import type { Logger } from 'pino';

export interface Closer {
  name: string;
  close: () => Promise<unknown> | unknown;
}

/**
 * Graceful shutdown on SIGTERM/SIGINT (and on an uncaught error) via close-with-grace:
 * closers run in reverse order of registration (last opened, first closed), and the
 * process is forced out after `timeoutMs` so a stuck dependency never blocks a rollout.
 * Returns a function that triggers the same shutdown by hand (tests, fatal start-up errors).
 */
export function onShutdown(logger: Logger, closers: Closer[], opts: { timeoutMs?: number } = {}) {
  const { close } = closeWithGrace({ delay: opts.timeoutMs ?? 25_000, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'fatal error; shutting down');
    else logger.info({ signal }, 'shutting down');
    await closeAll(logger, closers);
    // The log is written asynchronously (createLogger): what is queued goes out before the exit.
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
  });
  return close;
}

/** Runs the closers in reverse order of registration; one that fails is logged and the rest still run. */
export async function closeAll(logger: Logger, closers: Closer[]): Promise<void> {
  for (const c of [...closers].reverse()) {
    try {
      await c.close();
      logger.info({ component: c.name }, 'closed');
    } catch (err) {
      logger.error({ err, component: c.name }, 'error while closing');
    }
  }
}
