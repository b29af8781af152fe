import type { FileServiceDeps } from './ports.js';

type Deps = Pick<FileServiceDeps, 'expiry' | 'blobs' | 'events' | 'clock' | 'logger' | 'retentionMs'>;

export interface ExpiryOptions {
  /** How long a replica may work on one file before another may take it over. */
  leaseMs: number;
  /** Files per run. */
  batch: number;
}

/**
 * Spec section 3: a file past retention loses its bytes and gets expired_at. Each file is
 * leased with one atomic write, so two replicas never expire the same file at once; the steps
 * after the lease are idempotent and ordered so that a crash anywhere is finished by the next
 * lease holder: remove the object, set expired_at (first time wins), publish file.expired with
 * the deterministic event id `file.expired:<id>`, mark the file finished. Without a crash the
 * event is published exactly once; after one, at worst again under the same id.
 */
export async function expireDue(deps: Deps, opts: ExpiryOptions): Promise<number> {
  let expired = 0;
  for (let i = 0; i < opts.batch; i++) {
    const now = deps.clock.now();
    const cutoff = new Date(now.getTime() - deps.retentionMs);
    const file = await deps.expiry.leaseDue(cutoff, now, new Date(now.getTime() + opts.leaseMs));
    if (!file) break;
    try {
      await deps.blobs.remove(file.objectKey);
      const done = await deps.expiry.setExpired(file.id, now);
      await deps.events.expired(done);
      await deps.expiry.finish(file.id);
      expired++;
    } catch (err) {
      // Leased, so no other run takes it before the lease ends; then it is retried.
      deps.logger.warn({ err, file_id: file.id }, 'expiring a file failed; retried when its lease ends');
    }
  }
  return expired;
}
