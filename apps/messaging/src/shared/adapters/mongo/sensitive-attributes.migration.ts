import type { Logger } from '@feedback/kit-core';
import { passById, runRecordedMigration, type MigrationPass } from '@feedback/kit-stores';
import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { splitSensitive, type SensitiveAttributes } from './sensitive-attributes.js';

const MIGRATION_ID = 'sharing_recipients.sensitive-attributes';

/** Recipient chunks and jobs as stored, any shape (their ids are strings). */
interface StoredDoc extends Document {
  _id: string;
}

/**
 * Takes the sensitive attributes out of the recipients that earlier versions stored with them in
 * clear (sharing_recipients, both the chunk shape and the one-recipient shape), once per set of
 * names: a sharing whose first messages still wait (its step `<id>.j0` waiting or running) keeps
 * them sealed, as a deferred sharing does now; every other loses them. Read in `_id` order,
 * `batch` documents at a time.
 *
 * Safe with several replicas at once and with the scheduler beside it: each document is rewritten
 * by an update conditional on the clear values it read, so the second replica's update, or one
 * after a release forgot the sealed copy, finds nothing to change. Only a finished pass is
 * recorded (in `migrations`, kit-stores runRecordedMigration); a stopped or failed one is done
 * again at the next start.
 */
export async function stripSensitiveRecipientAttributes(
  db: Db,
  opts: { sensitive: SensitiveAttributes; logger: Logger; batch?: number; signal?: AbortSignal },
): Promise<{ scanned: number; rewritten: number } | 'done before'> {
  return runRecordedMigration(db, {
    id: MIGRATION_ID,
    names: opts.sensitive.names,
    logger: opts.logger,
    doneMessage: 'sensitive recipient attributes taken out',
    pass: () => stripPass(db, opts),
  });
}

async function stripPass(db: Db, opts: { sensitive: SensitiveAttributes; batch?: number; signal?: AbortSignal }): Promise<MigrationPass> {
  const recipients = db.collection<StoredDoc>('sharing_recipients');
  const jobs = db.collection<StoredDoc>('sms_jobs');
  return passById(recipients, {
    batch: opts.batch ?? 20,
    signal: opts.signal,
    rewrite: async (docs) => {
      const found = docs.map((d) => ({ d, clear: clearPaths(d, opts.sensitive.names) })).filter((f) => f.clear.paths.length > 0);
      if (found.length === 0) return 0;
      const waiting = new Set(
        (
          await jobs
            .find({ _id: { $in: [...new Set(found.map((f) => `${f.d.sharing_id}.j0`))] }, state: { $in: ['waiting', 'running'] } })
            .project<{ sharing_id: string }>({ sharing_id: 1 })
            .toArray()
        ).map((j) => j.sharing_id),
      );
      const ops: AnyBulkWriteOperation<StoredDoc>[] = found.map(({ d, clear }) => {
        const keep = waiting.has(d.sharing_id) && !d.sensitive;
        const update: Document = { $unset: Object.fromEntries(clear.paths.map(([path]) => [path, ''])) };
        if (keep) update.$set = { sensitive: opts.sensitive.box.seal(JSON.stringify(clear.byRecipient), d.sharing_id) };
        return { updateOne: { filter: { _id: d._id, ...Object.fromEntries(clear.paths) }, update } };
      });
      return (await recipients.bulkWrite(ops, { ordered: false })).modifiedCount;
    },
  });
}

/** The document's clear sensitive attributes: [path, value] pairs, and the values by recipient (sealed form). */
function clearPaths(d: Document, names: ReadonlySet<string>) {
  const paths: [string, string][] = [];
  const stored: Document[] = Array.isArray(d.recipients) ? d.recipients : [d];
  const prefix = (k: number) => (Array.isArray(d.recipients) ? `recipients.${k}.attributes` : 'attributes');
  const byRecipient = stored.map((r, k) => {
    const [, secret] = splitSensitive(r.attributes as Record<string, string> | undefined, names);
    for (const [name, value] of Object.entries(secret)) paths.push([`${prefix(k)}.${name}`, value]);
    return secret;
  });
  return { paths, byRecipient };
}
