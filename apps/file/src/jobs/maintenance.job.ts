import { startPeriodicJob } from '@feedback/kit-stores';
import { expireDue, type ExpiryOptions } from '../domain/expiry.use-cases.js';
import { sweepObjects, sweepStaleUploads } from '../domain/file.use-cases.js';
import type { FileServiceDeps } from '../domain/ports.js';
import { republishUploads } from '../domain/upload.use-cases.js';
import { republishProcessed } from '../domain/workflow.use-cases.js';

interface MaintenanceOptions extends ExpiryOptions {
  intervalMs: number;
  /** Unfinished multipart uploads older than this are aborted. */
  staleUploadMs: number;
}

/**
 * The file service's background work, run by every replica (the per-file leases and
 * insert-once records make that safe): expire files past retention, remove objects no entry
 * owns, abort multipart uploads a crash left open, retry unconfirmed file.uploaded and
 * file.processed events. A
 * jittered interval keeps replicas apart; a full expiry batch means more are due: no pause.
 */
export function startMaintenance(deps: FileServiceDeps, opts: MaintenanceOptions) {
  return startPeriodicJob({
    name: 'file-maintenance',
    everyMs: opts.intervalMs,
    jitter: 0.25,
    logger: deps.logger,
    run: async () => {
      const expired = await expireDue(deps, opts);
      const swept = await sweepObjects(deps);
      const staleUploads = await sweepStaleUploads(deps, opts.staleUploadMs);
      const republished = await republishUploads(deps);
      const processed = await republishProcessed(deps);
      if (expired + swept + staleUploads + republished + processed > 0)
        deps.logger.info(
          { expired, swept, stale_uploads: staleUploads, republished, republished_processed: processed },
          'file maintenance run',
        );
      return expired >= opts.batch;
    },
  });
}
