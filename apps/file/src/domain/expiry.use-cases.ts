import type { FileServiceDeps } from './ports.js';

type Deps = Pick<FileServiceDeps, 'expiry' | 'blobs' | 'events' | 'clock' | 'logger' | 'retentionMs'>;

export interface ExpiryOptions {
  /** Who runs this job (one id per process), recorded with each lease. */
  holder: string;
  /** How long a replica may work on one file before another may take it over. */
  leaseMs: number;
  /** Files per run. */
  batch: number;
}

/**
 * Retention (docs/api.md "Limits", docs/decisions.md "Expiry"): a file past retention loses its bytes and gets expired_at. Each file is
 * leased first, and a lease is granted to exactly one replica (see ExpiryRepository.lease), so
 * two replicas never expire the same file. The steps after it are idempotent and ordered so that
 * a lease holder that dies midway is finished by the next one: remove the object, set expired_at
 * (the first time wins), publish file.expired under the deterministic event id
 * `file.expired:<id>`, mark the file finished. Without a crash the event goes out exactly once;
 * after one, at worst once more under the same id, which consumers drop.
 */
export async function expireDue(deps: Deps, opts: ExpiryOptions): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.expiry.listDue(new Date(now.getTime() - deps.retentionMs), opts.batch);
  let expired = 0;
  for (const file of due) {
    const at = deps.clock.now();
    const lease = await deps.expiry.lease(file.id, opts.holder, at, new Date(at.getTime() + opts.leaseMs));
    if (!lease) continue; // another replica has it
    try {
      await deps.blobs.remove(file.objectKey);
      const done = await deps.expiry.setExpired(file.id, at);
      if (done) await deps.events.expired(done); // null: deleted meanwhile, and a deleted file does not expire
      await deps.expiry.finish(file.id, lease);
      if (done) expired++;
    } catch (err) {
      deps.logger.warn({ err, file_id: file.id }, 'expiring a file failed; retried when its lease ends');
    }
  }
  return expired;
}
