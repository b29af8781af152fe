import type { Logger } from '@feedback/kit-core';
import type { Db } from 'mongodb';
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
