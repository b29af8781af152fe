import { setTimeout as sleep } from 'node:timers/promises';
import { expireDue, type ExpiryOptions } from '../domain/expiry.use-cases.js';
import { sweepDeleted } from '../domain/file.use-cases.js';
import type { FileServiceDeps } from '../domain/ports.js';
import { republishUploads } from '../domain/upload.use-case.js';

export interface ExpiryJobOptions extends ExpiryOptions {
  intervalMs: number;
}

/**
 * Runs the maintenance of every replica: expire files past retention, finish interrupted
 * deletions, retry unconfirmed file.uploaded events. Every replica runs it; the per-file
 * claims make that safe. A jittered interval keeps replicas from polling in lockstep.
 */
export function startExpiryJob(deps: FileServiceDeps, opts: ExpiryJobOptions) {
  const stop = new AbortController();
  const loop = (async () => {
    while (!stop.signal.aborted) {
      try {
        const expired = await expireDue(deps, opts);
        const swept = await sweepDeleted(deps);
        const republished = await republishUploads(deps);
        if (expired + swept + republished > 0) deps.logger.info({ expired, swept, republished }, 'file maintenance run');
        if (expired === opts.batch) continue; // more are due: no pause
      } catch (err) {
        deps.logger.warn({ err }, 'file maintenance run failed; retrying next interval');
      }
      await sleep(opts.intervalMs * (0.75 + Math.random() / 2), undefined, { signal: stop.signal }).catch(() => undefined);
    }
  })();
  return {
    name: 'expiry-job',
    async close() {
      stop.abort();
      await loop;
    },
  };
}
