import { insertManyOnce, insertOnce, keysetPage } from '@feedback/kit-stores';
import type { Page } from '@feedback/kit-core';
import type { Collection, Db, Filter } from 'mongodb';
import type { RecipientWriter, SharingListQuery, SharingRepository } from '../../ports.js';
import { splitSensitive, type SensitiveAttributes } from './sensitive-attributes.js';
import type { Recipient, RejectedPhone, SmsSharing } from '../../domain/sharing.js';
import type { OwedEntry } from '../../../reports/domain/tally.js';

interface SharingDoc {
  _id: string;
  account_id: string;
  campaign_id: string;
  created_at: Date;
  accepted: number;
  duplicates: number;
  rejected: RejectedPhone[];
  /** Absent on sharings made before scheduling existed: at once. */
  scheduled_for?: Date | null;
  cancelled_at?: Date | null;
  /** When sharing.completed was raised; absent until then. */
  completed_at?: Date | null;
  /** First messages settled as dispatchers and cancels noted them; absent until the first note. */
  settled_firsts?: number;
  progressed_at?: Date;
  /** The campaign report's owed entries (reports/domain/tally.ts): the accepted recipients, until the relay counts them. */
  tally_owed?: OwedEntry[];
}

interface StoredRecipient {
  phone: string;
  input: string;
  attributes: Record<string, string>;
  built_in_responses: Record<string, string>;
}

/**
 * Up to CHUNK recipients of a sharing in one document, `<sharing id>.<chunk>`: the local
 * server's cost is per document (index entries, journal), so a 5,000-phone sharing is 5 writes
 * instead of 5,000 before the caller gets its answer. (Documents of the earlier shape, one
 * recipient each with its fields at the top, are still read.)
 */
interface RecipientChunkDoc {
  _id: string;
  sharing_id: string;
  recipients?: StoredRecipient[];
  /**
   * A deferred sharing's sensitive attributes (the TCKN...), kept out of `attributes`: one JSON
   * array in recipient order (`{}` for a recipient without any), sealed with AES-256-GCM under
   * PERSONAL_DATA_KEY, bound to the sharing id. Removed once the first messages are released.
   */
  sensitive?: string;
  /** The earlier shape: one recipient per document. */
  phone?: string;
}

/** Recipients per chunk, and a size bound well below the 16 MB document limit (a CSV row's attributes may be large). */
const CHUNK = 1_000;
const CHUNK_BYTES = 4 * 1024 * 1024;

/** An upper bound of a recipient's BSON size: its strings (UTF-16 length × 3 covers UTF-8) plus per-field overhead. */
function roughSize(r: StoredRecipient): number {
  let n = 64 + 3 * (r.phone.length + r.input.length);
  for (const map of [r.attributes, r.built_in_responses]) for (const [k, v] of Object.entries(map)) n += 16 + 3 * (k.length + v.length);
  return n;
}

/**
 * Recipients in chunk documents `<sharing id>.<n>`, numbered from `first`: at most CHUNK recipients
 * and about CHUNK_BYTES each. Sensitive attributes leave `attributes`: sealed in `sensitive` when
 * kept, else dropped.
 */
function chunked(
  sharingId: string,
  first: number,
  recipients: Recipient[],
  sensitive: SensitiveAttributes,
  keepSensitive: boolean,
): RecipientChunkDoc[] {
  const chunks: RecipientChunkDoc[] = [];
  let chunk: StoredRecipient[] = [];
  let kept: Record<string, string>[] = [];
  let bytes = 0;
  const close = () => {
    if (chunk.length === 0) return;
    const sealed = keepSensitive && kept.some((k) => Object.keys(k).length > 0);
    chunks.push({
      _id: `${sharingId}.${first + chunks.length}`,
      sharing_id: sharingId,
      recipients: chunk,
      ...(sealed && { sensitive: sensitive.box.seal(JSON.stringify(kept), sharingId) }),
    });
    chunk = [];
    kept = [];
    bytes = 0;
  };
  for (const r of recipients) {
    const [attributes, secret] = splitSensitive(r.attributes, sensitive.names);
    const stored = { phone: r.phone, input: r.input, attributes, built_in_responses: r.builtInResponses };
    const size = roughSize(stored) + 3 * JSON.stringify(secret).length;
    if (chunk.length >= CHUNK || bytes + size > CHUNK_BYTES) close();
    chunk.push(stored);
    kept.push(secret);
    bytes += size;
  }
  close();
  return chunks;
}

export class MongoSharingRepository implements SharingRepository {
  private readonly sharings: Collection<SharingDoc>;
  private readonly recipients: Collection<RecipientChunkDoc>;

  constructor(
    db: Db,
    private readonly sensitive: SensitiveAttributes,
  ) {
    this.sharings = db.collection<SharingDoc>('sharings');
    this.recipients = db.collection<RecipientChunkDoc>('sharing_recipients');
  }

  writeRecipients(sharingId: string, opts: { keepSensitive?: boolean } = {}): RecipientWriter {
    const writes: Promise<unknown>[] = [];
    let chunks = 0;
    return {
      add: async (recipients) => {
        const docs = chunked(sharingId, chunks, recipients, this.sensitive, opts.keepSensitive ?? false);
        chunks += docs.length;
        const write = insertManyOnce(this.recipients, docs);
        write.catch(() => {}); // complete() reports it; until then it must not count as unhandled
        writes.push(write);
        // One turn of the event loop: the driver sends the write before the caller goes on.
        await new Promise((resolve) => setImmediate(resolve));
      },
      complete: async (s) => {
        // Recipients first: a sharing that can be read is complete. Same ids on a repeat: nothing doubled.
        await Promise.all(writes);
        await insertOnce(this.sharings, {
          _id: s.id,
          account_id: s.accountId,
          campaign_id: s.campaignId,
          created_at: s.createdAt,
          accepted: s.accepted,
          duplicates: s.duplicates,
          rejected: s.rejected,
          scheduled_for: s.scheduledFor,
          cancelled_at: null,
          // The campaign report's recipients, counted by the relay (reports/domain/tally-relay.use-cases.ts) at acceptance.
          tally_owed: [{ f: 'recipients', at: s.createdAt, n: s.accepted }],
        });
      },
    };
  }

  async findById(accountId: string, id: string): Promise<SmsSharing | null> {
    const d = await this.sharings.findOne({ _id: id, account_id: accountId });
    return d ? toSharing(d) : null;
  }

  /**
   * Index completed_created_id (`null` matches the sharings made before the field existed too), in
   * keyset ranges (kit-stores keysetPage): the `$or`s this query had made the local server scan the
   * collection. Whether one is due and has phones is checked on each sharing read.
   */
  async incomplete(q: { since: Date; now: Date; after: { createdAt: Date; id: string } | null; limit: number }): Promise<SmsSharing[]> {
    // A key older than `since` is before every sharing of the window: the window's start.
    const after = q.after && q.after.createdAt >= q.since ? { at: q.after.createdAt, id: q.after.id } : null;
    const { items } = await keysetPage(
      this.sharings,
      { list: 'incomplete_sharings', size: q.limit, after },
      {
        filter: { completed_at: null, created_at: { $gte: q.since } },
        order: { date: 'created_at', ascending: true },
        accept: (d) => d.accepted > 0 && (d.scheduled_for == null || d.scheduled_for <= q.now),
      },
    );
    return items.map(toSharing);
  }

  async noteSettled(counts: ReadonlyMap<string, number>, at: Date): Promise<void> {
    const ops = [...counts].filter(([, n]) => n > 0);
    if (ops.length === 0) return;
    await this.sharings.bulkWrite(
      ops.map(([id, n]) => ({ updateOne: { filter: { _id: id }, update: { $inc: { settled_firsts: n }, $set: { progressed_at: at } } } })),
      { ordered: false },
    );
  }

  async markCompleted(id: string, at: Date): Promise<void> {
    await this.sharings.updateOne({ _id: id, completed_at: null }, { $set: { completed_at: at } });
  }

  async cancel(accountId: string, id: string, at: Date): Promise<SmsSharing | null> {
    // The first cancellation's time stays.
    await this.sharings.updateOne({ _id: id, account_id: accountId, cancelled_at: { $in: [null] } }, { $set: { cancelled_at: at } });
    return this.findById(accountId, id);
  }

  async *recipientPages(sharingId: string): AsyncIterable<Recipient[]> {
    // A chunk document at a time (`<sharing>.<n>`, up to 1,000 recipients each).
    for await (const d of this.recipients.find({ sharing_id: sharingId }).sort({ _id: 1 }).batchSize(2)) {
      const stored = d.recipients ?? (d.phone ? [d as unknown as StoredRecipient] : []);
      const kept = this.openSensitive(d);
      yield stored.map((r, k) => ({
        phone: r.phone,
        input: r.input,
        attributes: { ...r.attributes, ...kept[k] },
        builtInResponses: r.built_in_responses ?? {},
      }));
    }
  }

  async dropSensitiveAttributes(sharingId: string): Promise<void> {
    await this.recipients.updateMany({ sharing_id: sharingId, sensitive: { $exists: true } }, { $unset: { sensitive: '' } });
  }

  /**
   * The chunk's sealed attributes, by recipient. One that no configured key opens (a key removed
   * too early) is released without them rather than holding the scheduler on it for ever.
   */
  private openSensitive(d: RecipientChunkDoc): Record<string, string>[] {
    if (!d.sensitive) return [];
    try {
      return JSON.parse(this.sensitive.box.open(d.sensitive, d.sharing_id)) as Record<string, string>[];
    } catch {
      return [];
    }
  }

  /**
   * Index account_created_id, or account_campaign_created_id for one campaign; the dates bound the
   * range read, the status (`accept`) is checked on each sharing read down it.
   */
  async list(q: SharingListQuery): Promise<Page<SmsSharing>> {
    const filter: Filter<SharingDoc> = { account_id: q.accountId };
    if (q.campaignId) filter.campaign_id = q.campaignId;
    if (q.createdAfter || q.createdBefore) {
      // "At or after" as "after one millisecond before" (the same on BSON dates): the local server
      // reads a $gte bound on a descending index as $gt, losing the sharings made at that instant.
      const after = q.createdAfter && new Date(q.createdAfter.getTime() - 1);
      filter.created_at = { ...(after && { $gt: after }), ...(q.createdBefore && { $lt: q.createdBefore }) };
    }
    const accept = q.accept;
    const { items, nextPageToken } = await keysetPage(this.sharings, q.page, {
      filter,
      order: { date: 'created_at' },
      ...(accept && { accept: (d: SharingDoc) => accept(toSharing(d)) }),
    });
    return { items: items.map(toSharing), nextPageToken };
  }

  async recipientPhonesAt(sharingId: string, index: number): Promise<string[] | null> {
    // By its id (`<sharing>.<n>`), phones only: no sort a planner could serve by walking the
    // collection in _id order, and a chunk's attributes (sealed ones too) stay in the database.
    const d = await this.recipients.findOne({ _id: `${sharingId}.${index}` }, { projection: { 'recipients.phone': 1 } });
    if (d) return d.recipients?.map((r) => r.phone) ?? [];
    if (index > 0) return null;
    // A sharing stored before chunks (one document per recipient) reads as one document.
    const earlier = await this.recipients.find({ sharing_id: sharingId, phone: { $exists: true } }, { projection: { phone: 1 } }).toArray();
    return earlier.length > 0 ? earlier.map((e) => e.phone!) : null;
  }

  async hasRecipient(sharingId: string, phone: string): Promise<boolean> {
    // The sharing's few documents by index sharing_phone, phones only, looked through here: a
    // condition on `recipients.phone` makes the local server's planner walk the collection.
    const docs = await this.recipients.find({ sharing_id: sharingId }, { projection: { 'recipients.phone': 1, phone: 1 } }).toArray();
    return docs.some((d) => d.phone === phone || (d.recipients?.some((r) => r.phone === phone) ?? false));
  }

  async listRecipientPhones(sharingId: string): Promise<string[]> {
    const docs = await this.recipients.find({ sharing_id: sharingId }).toArray();
    return docs.flatMap((d) => d.recipients?.map((r) => r.phone) ?? (d.phone ? [d.phone] : [])).sort();
  }
}

const toSharing = (d: SharingDoc): SmsSharing => ({
  id: d._id,
  accountId: d.account_id,
  campaignId: d.campaign_id,
  createdAt: d.created_at,
  accepted: d.accepted,
  duplicates: d.duplicates,
  rejected: d.rejected,
  scheduledFor: d.scheduled_for ?? null,
  cancelledAt: d.cancelled_at ?? null,
  ...(d.settled_firsts !== undefined && { settledFirsts: d.settled_firsts, progressedAt: d.progressed_at ?? null }),
  ...(d.completed_at && { completedAt: d.completed_at }),
});
