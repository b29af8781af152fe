import type { Logger } from '@feedback/kit-core';
import type { Collection, Db, Document, Filter, WithId } from 'mongodb';
import { isDuplicateKeyError } from './mongo.js';

interface MigrationDoc {
  _id: string;
  /** The names the pass covered: a deployment that names another one runs it again. */
  names: string[];
  done_at: Date;
}

/** What one pass did; `stopped`: it was cut short (a stop), so it is not recorded and runs again at the next start. */
export interface MigrationPass {
  scanned: number;
  rewritten: number;
  stopped?: boolean;
}

/**
 * A start-up data migration run once per list of names (the sensitive attributes a pass covered):
 * skipped when collection `migrations` records a finished pass over every name of `names`, else
 * `pass` runs and, when it finished, is recorded. A stopped or failed pass leaves no mark, so the
 * next start does it again; the pass itself must be safe to repeat and to run on several replicas
 * at once (conditional updates), since nothing here stops two replicas from running it together.
 */
export async function runRecordedMigration(
  db: Db,
  o: { id: string; names: Iterable<string>; logger: Logger; doneMessage: string; pass: () => Promise<MigrationPass> },
): Promise<{ scanned: number; rewritten: number } | 'done before'> {
  const names = [...o.names].sort();
  const migrations = db.collection<MigrationDoc>('migrations');
  const mark = await migrations.findOne({ _id: o.id });
  if (mark && names.every((n) => mark.names.includes(n))) return 'done before';

  const { scanned, rewritten, stopped } = await o.pass();
  if (stopped) return { scanned, rewritten };
  try {
    await migrations.updateOne({ _id: o.id }, { $set: { names, done_at: new Date() } }, { upsert: true });
  } catch (err) {
    // Two replicas finishing together: both upsert, one wins the _id; the mark is there either way.
    if (!isDuplicateKeyError(err)) throw err;
  }
  o.logger.info({ scanned, rewritten, names }, o.doneMessage);
  return { scanned, rewritten };
}

/**
 * A pass over a whole collection in `_id` order, `batch` documents at a time (with `projection`
 * when given): `rewrite` changes what it must of a batch and answers how many it changed. Checks
 * `signal` between batches: a stopped pass says so, and is not recorded.
 */
export async function passById<T extends Document>(
  collection: Collection<T>,
  o: { batch: number; projection?: Document; signal?: AbortSignal; rewrite: (docs: WithId<T>[]) => Promise<number> },
): Promise<MigrationPass> {
  let after: unknown = null;
  let scanned = 0;
  let rewritten = 0;
  for (;;) {
    if (o.signal?.aborted) return { scanned, rewritten, stopped: true };
    const filter = (after === null ? {} : { _id: { $gt: after } }) as Filter<T>;
    const docs = await collection
      .find(filter, o.projection ? { projection: o.projection } : {})
      .sort({ _id: 1 })
      .limit(o.batch)
      .toArray();
    if (docs.length === 0) return { scanned, rewritten };
    after = docs[docs.length - 1]!._id;
    scanned += docs.length;
    rewritten += await o.rewrite(docs);
  }
}
