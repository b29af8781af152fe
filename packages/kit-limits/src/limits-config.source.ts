import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { Logger } from '@feedback/kit-core';
import { DEFAULT_LIMITS, parseLimitsFile, type LimitsConfig } from './limits-config.js';

/** Where the limiter reads its tiers; `current()` is called on every admission, so it is cheap. */
export interface LimitsConfigSource {
  current(): LimitsConfig;
  /** The tiers of one key (an account) when it may have its own (LiveLimits); absent: `current()` for every key. */
  forKey?(key: string): LimitsConfig;
  close(): void;
}

export interface WatchLimitsOptions {
  /** The file; unset → the default tiers (docs/api.md "Limits"), nothing watched. Usually `process.env.SMS_LIMITS_FILE`. */
  path: string | undefined;
  logger: Logger;
  /** How often the file's stat is compared (default 1000 ms). */
  intervalMs?: number;
  onChange?: (config: LimitsConfig) => void;
}

/** A fixed config, for tests and for callers that build tiers in code. */
export function staticLimits(config: LimitsConfig): LimitsConfigSource {
  return { current: () => config, close: () => undefined };
}

/**
 * Loads the tier file at start-up (throwing, so a bad file fails fast) and then checks it at
 * most once per interval: a changed file takes effect without a restart. A broken or missing
 * new version keeps the previous config and logs an error once per version.
 * Polling a stat rather than fs.watch: editors and config-map mounts replace the file (rename,
 * symlink swap), which fs.watch loses track of, and one stat per second costs nothing.
 */
export function watchLimitsFile(opts: WatchLimitsOptions): LimitsConfigSource {
  const { path, logger } = opts;
  if (!path) return staticLimits(DEFAULT_LIMITS);
  const log = logger.child({ component: 'limits-config', path });

  let config = parseLimitsFile(readFileSync(path, 'utf8'), path);
  let seen = fingerprint(statSync(path));
  log.info({ tiers: config.tiers, enabled: config.enabled }, 'limits config loaded');

  let checking = false;
  let lastError = '';
  const check = async () => {
    if (checking) return;
    checking = true;
    try {
      const now = fingerprint(await stat(path));
      if (now === seen) return;
      seen = now;
      const next = parseLimitsFile(await readFile(path, 'utf8'), path);
      config = next;
      log.info({ tiers: next.tiers, enabled: next.enabled }, 'limits config reloaded');
      opts.onChange?.(next);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      // A vanished file gets one log line, not one per interval.
      const marker = e.code === 'ENOENT' ? 'missing' : seen;
      if (marker !== lastError) log.error({ err }, 'limits config not reloaded; keeping the previous one');
      lastError = marker;
      if (e.code === 'ENOENT') seen = 'missing';
      return;
    } finally {
      checking = false;
    }
    lastError = '';
  };
  const timer = setInterval(() => void check(), opts.intervalMs ?? 1_000);
  timer.unref();

  return {
    current: () => config,
    close: () => clearInterval(timer),
  };
}

function fingerprint(s: { mtimeMs: number; ctimeMs: number; size: number; ino: number }): string {
  return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
}
