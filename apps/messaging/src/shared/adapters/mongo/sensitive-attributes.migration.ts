import type { Logger } from '@feedback/kit-core';
import { isDuplicateKeyError } from '@feedback/kit-stores';
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
 * recorded (in `migrations`); a stopped or failed one is done again at the next start.
 */
export async function stripSensitiveRecipientAttributes(
  db: Db,
  opts: { sensitive: SensitiveAttributes; logger: Logger; batch?: number; signal?: AbortSignal },
): Promise<{ scanned: number; rewritten: number } | 'done before'> {
  const names = [...opts.sensitive.names].sort();
  const migrations = db.collection<{ _id: string; names: string[]; done_at: Date }>('migrations');
  const mark = await migrations.findOne({ _id: MIGRATION_ID });
  if (mark && names.every((n) => mark.names.includes(n))) return 'done before';

  const recipients = db.collection<StoredDoc>('sharing_recipients');
  const jobs = db.collection<StoredDoc>('sms_jobs');
  let after: string | null = null;
  let scanned = 0;
  let rewritten = 0;
  for (;;) {
    if (opts.signal?.aborted) return { scanned, rewritten };
    const docs = await recipients
      .find(after === null ? {} : { _id: { $gt: after } })
      .sort({ _id: 1 })
      .limit(opts.batch ?? 20)
      .toArray();
    if (docs.length === 0) break;
    after = docs[docs.length - 1]!._id;
    scanned += docs.length;
    const found = docs.map((d) => ({ d, clear: clearPaths(d, opts.sensitive.names) })).filter((f) => f.clear.paths.length > 0);
    if (found.length === 0) continue;
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
    rewritten += (await recipients.bulkWrite(ops, { ordered: false })).modifiedCount;
  }
  try {
    await migrations.updateOne({ _id: MIGRATION_ID }, { $set: { names, done_at: new Date() } }, { upsert: true });
  } catch (err) {
    // Two replicas finishing together: one upsert wins the _id; the mark is there either way.
    if (!isDuplicateKeyError(err)) throw err;
  }
  opts.logger.info({ scanned, rewritten, names }, 'sensitive recipient attributes taken out');
  return { scanned, rewritten };
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
