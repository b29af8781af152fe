import type { Logger } from '@feedback/kit-core';
import { startPeriodicJob } from '@feedback/kit-stores';
import { watchLimitsFile } from './limits-config.source.js';
import { LiveLimits, type LimitsChanges, type LimitsStore } from './live-limits.js';

export interface StartLiveLimitsOptions {
  store: LimitsStore;
  changes: LimitsChanges;
  /** The limits file (SMS_LIMITS_FILE); unset → the default tiers beneath the stored ones. */
  file: string | undefined;
  logger: Logger;
  /** The safety net's period: a replica that missed a change notice re-reads the store this often (default 30 s). */
  refreshEveryMs?: number;
  /** Names the periodic job in logs and metrics. */
  name?: string;
}

export interface RunningLiveLimits {
  limits: LiveLimits;
  close(): Promise<void>;
}

/**
 * The live limits as a process runs them: the file (or the defaults) beneath, the store read
 * once before serving (throwing, like a bad file: limits must be known before the first
 * admission), re-read on every change notice and periodically.
 */
export async function startLiveLimits(opts: StartLiveLimitsOptions): Promise<RunningLiveLimits> {
  const { logger } = opts;
  const base = watchLimitsFile({
    path: opts.file,
    logger,
    onChange: () => {
      // The operator edited the file but the stored limits win: say so, or the edit looks ignored.
      if (live.deployment().origin === 'stored') {
        logger.warn('the SMS limits file changed, but stored limits are in force; `feedbackctl limits reset` returns to the file');
      }
    },
  });
  // Called back only after a later check of the file, when `live` is long set.
  const live = new LiveLimits({ store: opts.store, changes: opts.changes, base, baseOrigin: opts.file ? 'file' : 'default', logger });
  await live.refresh();
  opts.changes.subscribe(
    () => void live.refresh().catch((err: unknown) => logger.warn({ err }, 'SMS limits not re-read; retried periodically')),
  );
  const job = startPeriodicJob({
    name: opts.name ?? 'sms-limits-refresh',
    everyMs: opts.refreshEveryMs ?? 30_000,
    jitter: 0.1,
    runAtStart: false,
    run: () => live.refresh(),
    logger,
  });
  return {
    limits: live,
    async close() {
      await job.stop();
      live.close();
      await opts.changes.close();
    },
  };
}
