import {
  MongoClient,
  type Collection,
  type Db,
  type Document,
  type Filter,
  type IndexDescription,
  type OptionalUnlessRequiredId,
  type UpdateFilter,
  type WithId,
} from 'mongodb';
import { inspect } from 'node:util';
import type { Logger } from '@feedback/kit-core';
import { redactUrl, urlPassword } from './store-connections.js';

export interface MongoOptions {
  /** Credentials, TLS and authSource go here, as the driver reads them (packages/kit-stores/README.md). */
  url: string;
  /** A PEM CA file to trust; turns TLS on (MONGO_TLS_CA_FILE, for a URL that does not say so itself). */
  tlsCAFile?: string;
  /** Each service owns exactly one database (docs/architecture.md). */
  dbName: string;
  logger: Logger;
  /** Shows up in server logs and currentOp; defaults to dbName. */
  appName?: string;
  /** Connections per server; a service needs few. */
  maxPoolSize?: number;
  /** How long start-up (and each later operation) waits for a server before failing. */
  serverSelectionTimeoutMS?: number;
}

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/**
 * Connects and pings once, so a wrong URL or a down server fails start-up within
 * `serverSelectionTimeoutMS` instead of on the first request.
 *
 * Call it once per process, in main.ts, and pass `db` (or repositories built on it) down:
 * MongoClient owns a connection pool and is meant to be shared, not opened per request.
 *
 * The same code runs on real MongoDB (production, docker-compose) and on SecantusDB locally;
 * both are replica sets (SecantusDB a one-member one), so transactions, TTL indexes and change
 * streams are there when a service needs them (docs/decisions.md "Local MongoDB server").
 */
export async function connectMongo(opts: MongoOptions): Promise<MongoHandle> {
  const timeout = opts.serverSelectionTimeoutMS ?? 5_000;
  const where = redactUrl(opts.url);
  let client: MongoClient;
  try {
    client = newClient(opts, timeout);
  } catch (err) {
    // A URL the driver cannot parse (an unescaped character in the password, an unknown option).
    throw connectError(`mongo: invalid URL ${where}`, err, opts.url);
  }
  try {
    await client.connect();
    await client.db(opts.dbName).command({ ping: 1 });
  } catch (err) {
    await client.close().catch(() => undefined);
    throw connectError(`mongo: cannot reach ${where} within ${timeout} ms`, err, opts.url);
  }
  opts.logger.info({ mongo: where, db: opts.dbName, tls_ca_file: opts.tlsCAFile }, 'mongo connected');
  return {
    client,
    db: client.db(opts.dbName),
    close: () => client.close(),
  };
}

function newClient(opts: MongoOptions, timeout: number): MongoClient {
  return new MongoClient(opts.url, {
    appName: opts.appName ?? opts.dbName,
    maxPoolSize: opts.maxPoolSize ?? 20,
    minPoolSize: 0,
    serverSelectionTimeoutMS: timeout,
    connectTimeoutMS: timeout,
    // Acknowledged means durable: the write is in the journal of a majority before the answer.
    // Real MongoDB's replica-set default (w: majority, journalled by
    // writeConcernMajorityJournalDefault) made explicit, so SecantusDB, whose default journal
    // flush lags commits, does not lose acknowledged writes to a kill -9 either
    // (docs/decisions.md "Local MongoDB server").
    writeConcern: { w: 'majority', journal: true },
    ...(opts.tlsCAFile !== undefined && { tls: true, tlsCAFile: opts.tlsCAFile }),
  });
}

/**
 * Our message over the driver's, with the URL's password cut out: the error reaches the
 * start-up crash log. The driver's error stays attached as the cause only when it does not
 * hold the password itself (a parse error may quote the URL).
 */
function connectError(what: string, err: unknown, url: string): Error {
  const password = urlPassword(url);
  const message = err instanceof Error ? err.message : String(err);
  if (!password) return new Error(`${what}: ${message}`, { cause: err });
  const scrub = (text: string) => text.split(password).join('***').split(encodeURIComponent(password)).join('***');
  const leaks = inspect(err, { depth: 6 }).includes(password) || inspect(err, { depth: 6 }).includes(encodeURIComponent(password));
  return new Error(`${what}: ${scrub(message)}`, leaks ? undefined : { cause: err });
}

/** Index specs per collection, as main.ts declares them next to the repositories. */
export type IndexSpec = Record<string, IndexDescription[]>;
/** Names of indexes an earlier version made and this one replaced, per collection: dropped at start-up. */
export type RetiredIndexes = Record<string, string[]>;

/**
 * Creates the indexes at start-up. Idempotent: an identical index that already exists is a
 * no-op. An existing index with the same name but different options throws (and so fails
 * start-up), because silently keeping the old definition could drop a uniqueness rule.
 * TTL indexes (`expireAfterSeconds`) are fine: the server removes due documents about once a
 * minute, so use them for housekeeping, never for a rule that must hold at an exact time.
 */
export async function ensureIndexes(db: Db, spec: IndexSpec, retired: RetiredIndexes = {}): Promise<void> {
  // Today's indexes first, then the retired ones go: a database made by an older version keeps no
  // rule the code no longer states, and never lacks a uniqueness rule in between (other processes
  // write meanwhile). A replacement with the same key pattern differs in its options (a partial
  // filter), which the server allows beside the old one.
  for (const [collection, indexes] of Object.entries(spec)) {
    try {
      if (indexes.length > 0) await db.collection(collection).createIndexes(indexes);
    } catch (err) {
      throw new Error(`mongo: creating indexes on ${db.databaseName}.${collection} failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
  for (const [collection, names] of Object.entries(retired)) {
    for (const name of names) {
      // Gone already (or no collection): fine.
      await db
        .collection(collection)
        .dropIndex(name)
        .catch((err: { codeName?: string; code?: number }) => {
          if (err.codeName !== 'IndexNotFound' && err.code !== 27 && err.codeName !== 'NamespaceNotFound' && err.code !== 26) throw err;
        });
    }
  }
}

/**
 * True for a unique-index violation (E11000), from a single write or a bulk write.
 * Duck-typed so it also recognises errors from another copy of the driver.
 */
export function isDuplicateKeyError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; writeErrors?: unknown };
  if (e.code === 11000 || e.code === 11001) return true;
  return Array.isArray(e.writeErrors) && e.writeErrors.some((w) => (w as { code?: unknown })?.code === 11000);
}

/**
 * Inserts `doc` unless that would break a unique index (its `_id` or another); true only for
 * the one caller that inserted: "exactly one wins" for records that do not exist yet (a lease
 * of an attempt, an event id). To claim a document that exists, a conditional
 * `findOneAndUpdate` is just as atomic (the conformance test checks the server for both).
 */
export async function insertOnce<T extends Document & { _id: string }>(collection: Collection<T>, doc: T): Promise<boolean> {
  try {
    await collection.insertOne(doc as OptionalUnlessRequiredId<T>);
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

/**
 * `findOneAndUpdate` with `upsert`, answering the document after the write. Two first upserts
 * racing: the unique index lets one insert and the other, refused, tries again as an update (up
 * to three tries). SecantusDB may answer an upsert that met a concurrent first insert with the
 * update applied and no document (docs/decisions.md): it is read then, never written twice.
 */
export async function upsertAndRead<T extends Document>(
  collection: Collection<T>,
  filter: Filter<T>,
  update: UpdateFilter<T>,
): Promise<WithId<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      const doc =
        (await collection.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' })) ??
        (await collection.findOne(filter));
      if (!doc) throw new Error('upsert returned no document');
      return doc;
    } catch (err) {
      if (!isDuplicateKeyError(err) || attempt >= 3) throw err;
    }
  }
}

/**
 * The operations an unordered bulk write (insertMany, bulkWrite) refused for a unique key, by
 * their index in the batch; the others were applied. Any other failure (another write error, a
 * write concern error: the applied ones may not be durable; the connection) is rethrown: it is
 * not one item's answer. Duck-typed, like isDuplicateKeyError.
 */
export function duplicateKeyIndexes(err: unknown): Set<number> {
  const e = err as { writeErrors?: unknown; result?: { getWriteConcernError?: () => unknown } } | null;
  const list = [e?.writeErrors ?? []].flat() as { index?: unknown; code?: unknown }[];
  const onlyDuplicates = list.length > 0 && list.every((w) => w.code === 11000 && typeof w.index === 'number');
  if (!onlyDuplicates || e?.result?.getWriteConcernError?.()) throw err;
  return new Set(list.map((w) => w.index as number));
}

/**
 * insertOnce for many documents in one write (unordered): answers, per document, whether this
 * call inserted it; a document that would break a unique index is skipped (false), the others
 * are inserted. Any other write error, or a write concern error, throws.
 */
export async function insertManyOnce<T extends Document & { _id: string }>(collection: Collection<T>, docs: T[]): Promise<boolean[]> {
  if (docs.length === 0) return [];
  let refused = new Set<number>();
  try {
    await collection.insertMany(docs as OptionalUnlessRequiredId<T>[], { ordered: false });
  } catch (err) {
    refused = duplicateKeyIndexes(err);
  }
  return docs.map((_, i) => !refused.has(i));
}

/** Beyond this an outbox is simply "very behind"; counting further would cost a scan per scrape. */
const BACKLOG_COUNT_CAP = 10_000;
const BACKLOG_MAX_TIME_MS = 2_000;

/**
 * An outbox's backlog for metrics (kit-metrics outboxBacklogMetrics): the documents whose date
 * `field` is set, counted up to BACKLOG_COUNT_CAP, and the oldest of those dates. Both queries walk
 * the field's index from its first date and each has a server time limit, so a scrape costs little
 * even while the broker is away and the outbox grows.
 */
export async function backlogByDate<T extends Document>(
  collection: Collection<T>,
  field: keyof T & string,
): Promise<{ pending: number; oldest: Date | null }> {
  const pending = { [field]: { $gte: new Date(0) } } as Filter<T>;
  const [count, oldest] = await Promise.all([
    collection.countDocuments(pending, { limit: BACKLOG_COUNT_CAP, maxTimeMS: BACKLOG_MAX_TIME_MS }),
    collection.findOne(pending, { sort: { [field]: 1 }, projection: { [field]: 1 }, maxTimeMS: BACKLOG_MAX_TIME_MS }),
  ]);
  return { pending: count, oldest: (oldest?.[field] as Date | undefined) ?? null };
}
