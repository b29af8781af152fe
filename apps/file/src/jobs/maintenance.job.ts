import { setTimeout as sleep } from 'node:timers/promises';
import { expireDue, type ExpiryOptions } from '../domain/expiry.use-cases.js';
import { sweepObjects, sweepStaleUploads } from '../domain/file.use-cases.js';
import type { FileServiceDeps } from '../domain/ports.js';
import { republishUploads } from '../domain/upload.use-cases.js';

interface MaintenanceOptions extends ExpiryOptions {
  intervalMs: number;
  /** Unfinished multipart uploads older than this are aborted. */
  staleUploadMs: number;
}

/**
 * The file service's background work, run by every replica (the per-file leases and
 * insert-once records make that safe): expire files past retention, remove objects no entry
 * owns, abort multipart uploads a crash left open, retry unconfirmed file.uploaded events. A
 * jittered interval keeps replicas apart.
 */
export function startMaintenance(deps: FileServiceDeps, opts: MaintenanceOptions) {
  const stop = new AbortController();
  const runOnce = async () => {
    const expired = await expireDue(deps, opts);
    const swept = await sweepObjects(deps);
    const staleUploads = await sweepStaleUploads(deps, opts.staleUploadMs);
    const republished = await republishUploads(deps);
    if (expired + swept + staleUploads + republished > 0)
      deps.logger.info({ expired, swept, stale_uploads: staleUploads, republished }, 'file maintenance run');
    return expired;
  };
  const loop = (async () => {
    while (!stop.signal.aborted) {
      let more = false;
      try {
        more = (await runOnce()) >= opts.batch; // a full batch: more are due, no pause
      } catch (err) {
        deps.logger.warn({ err }, 'file maintenance run failed; retrying next interval');
      }
      if (!more) await sleep(opts.intervalMs * (0.75 + Math.random() / 2), undefined, { signal: stop.signal }).catch(() => undefined);
    }
  })();
  return {
    name: 'file-maintenance',
    async close() {
      stop.abort();
      await loop;
    },
  };
}
