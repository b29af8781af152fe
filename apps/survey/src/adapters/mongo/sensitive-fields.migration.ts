import { sensitiveNames, type Logger } from '@feedback/kit-core';
import { passById, runRecordedMigration, type MigrationPass } from '@feedback/kit-stores';
import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import type { PersonalDataHasher, SurveyConfig } from '../../domain/ports.js';
import { hashSensitive } from '../../domain/sensitive-fields.js';

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
 * recorded in `migrations` (kit-stores runRecordedMigration).
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
  const names = sensitiveNames(opts.config.sensitiveAttributes);
  return runRecordedMigration(db, {
    id: MIGRATION_ID,
    names,
    logger: opts.logger,
    doneMessage: 'sensitive customer fields hashed',
    pass: () => hashPass(db, names, opts),
  });
}

async function hashPass(
  db: Db,
  names: ReadonlySet<string>,
  opts: { hasher: Pick<PersonalDataHasher, 'hash'>; batch?: number; signal?: AbortSignal },
): Promise<MigrationPass> {
  const customers = db.collection<Document>('customers');
  return passById(customers, {
    batch: opts.batch ?? 500,
    projection: { schema: 1, attributes: 1 },
    signal: opts.signal,
    rewrite: async (docs) => {
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
      return ops.length > 0 ? (await customers.bulkWrite(ops, { ordered: false })).modifiedCount : 0;
    },
  });
}
