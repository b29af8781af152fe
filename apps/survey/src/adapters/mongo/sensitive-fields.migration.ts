import type { Logger } from '@feedback/kit-core';
import { isDuplicateKeyError } from '@feedback/kit-stores';
import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import type { PersonalDataHasher, SurveyConfig } from '../../domain/ports.js';
import { hashSensitive, sensitiveNames } from '../../domain/sensitive-fields.js';

interface MigrationDoc {
  _id: string;
  /** The sensitive names the pass covered: a deployment that names another field runs it again. */
  names: string[];
  done_at: Date;
}

const MIGRATION_ID = 'customers.sensitive-fields-hashed';

/**
 * Rewrites the clear sensitive fields (schema and attributes; the TCKN, and the deployment's
 * SENSITIVE_CUSTOMER_ATTRIBUTES) that earlier versions stored as their keyed hashes, once per
 * set of names. Customers are read in `_id` order, `batch` at a time, with only the two maps.
 *
 * Safe with several replicas running it at once, and with new writes beside it: each field is
 * rewritten by an update conditional on the clear value it read, so a field that another replica
 * (or a newer write) changed meanwhile is left alone, and a repeat changes nothing. A pass that
 * is stopped (or fails) leaves no mark, so the next start does it again; only a finished pass is
 * recorded in `migrations`.
 */
export async function hashSensitiveCustomerFields(
  db: Db,
  opts: {
    config: Pick<SurveyConfig, 'sensitiveAttributes'>;
    hasher: Pick<PersonalDataHasher, 'hash'>;
    logger: Logger;
    batch?: number;
    signal?: AbortSignal;
  },
): Promise<{ scanned: number; rewritten: number } | 'done before'> {
  const names = sensitiveNames(opts.config);
  const listed = [...names].sort();
  const migrations = db.collection<MigrationDoc>('migrations');
  const mark = await migrations.findOne({ _id: MIGRATION_ID });
  if (mark && listed.every((n) => mark.names.includes(n))) return 'done before';

  const customers = db.collection<Document>('customers');
  let after: Document['_id'] = null;
  let scanned = 0;
  let rewritten = 0;
  for (;;) {
    if (opts.signal?.aborted) return { scanned, rewritten };
    const docs = await customers
      .find<Document>(after === null ? {} : { _id: { $gt: after } }, { projection: { schema: 1, attributes: 1 } })
      .sort({ _id: 1 })
      .limit(opts.batch ?? 500)
      .toArray();
    if (docs.length === 0) break;
    after = docs[docs.length - 1]!._id;
    scanned += docs.length;
    const ops: AnyBulkWriteOperation<Document>[] = docs.flatMap((d) =>
      (['schema', 'attributes'] as const).flatMap((field) => {
        const clear: Record<string, unknown> = d[field] ?? {};
        const strings = Object.fromEntries(Object.entries(clear).filter((e): e is [string, string] => typeof e[1] === 'string'));
        const hashed = hashSensitive(strings, names, opts.hasher);
        return Object.entries(hashed)
          .filter(([k, v]) => v !== strings[k])
          .map(([k, v]) => ({
            updateOne: { filter: { _id: d._id, [`${field}.${k}`]: strings[k] }, update: { $set: { [`${field}.${k}`]: v } } },
          }));
      }),
    );
    if (ops.length > 0) rewritten += (await customers.bulkWrite(ops, { ordered: false })).modifiedCount;
  }
  try {
    await migrations.updateOne({ _id: MIGRATION_ID }, { $set: { names: listed, done_at: new Date() } }, { upsert: true });
  } catch (err) {
    // Two replicas finishing together: both upsert, one wins the _id; the mark is there either way.
    if (!isDuplicateKeyError(err)) throw err;
  }
  opts.logger.info({ scanned, rewritten, names: listed }, 'sensitive customer fields hashed');
  return { scanned, rewritten };
}
