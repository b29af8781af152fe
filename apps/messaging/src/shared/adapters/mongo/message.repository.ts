import { insertManyOnce, insertOnce } from '@feedback/kit-stores';
import type { Collection, Db, Filter } from 'mongodb';
import type { TextedPhones } from '../../ports.js';
import type { FinishedAttempt, MessageRepository, NewMessage } from '../../ports.js';
import type { SmsEncoding } from '../../domain/sms-encoding.js';
import {
  REPORTABLE_STATUSES,
  unsentRecord,
  type DeliveryError,
  type DeliveryStatus,
  type MessageStatus,
  type SmsMessage,
} from '../../domain/sms-message.js';
import { finishedFacts, insertedFacts, reportedFacts, type FactFields } from './message-facts.js';
import { phoneWindows } from './phone-windows.js';

/** With the campaign report's facts (message-facts.ts). */
interface MessageDoc extends FactFields {
  /** `<sharing id>.<phone>`: the unique key that makes the first claim the only one. */
  _id: string;
  account_id: string;
  sharing_id: string;
  campaign_id: string;
  phone: string;
  text: string;
  provider: string;
  status: MessageStatus;
  attempts: number;
  provider_message_id: string | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  /** The sending provider's report rule (ReportRule); absent on records written before it was kept. */
  dlr?: { status_param: string; delivered: string[]; failed: string[]; error_param?: string; description_param?: string } | null;
  /** What a failing delivery report said (DeliveryError). */
  dlr_error?: { status: string; code: string | null; description: string | null };
  /**
   * Set with the status by the delivery report that changed it, unset once its sms.status event
   * is published: the outbox of report events, inside the record (one atomic update writes both).
   */
  report_owed?: Date;
  link?: string;
  /** The code of a first message's `link` (not a reminder's, which repeats it): what a click names (reports/ click facts). */
  link_code?: string;
  reminder?: number;
  /** The text's cost at its provider; absent on records written before it was kept and on ones never rendered. */
  encoding?: SmsEncoding;
  segments?: number;
}

/** Ids per find of findMany. */
const IDS_PER_FIND = 100;

export class MongoMessageRepository implements MessageRepository, TextedPhones {
  private readonly docs: Collection<MessageDoc>;

  constructor(db: Db) {
    this.docs = db.collection<MessageDoc>('sms_messages');
  }

  async claim(m: NewMessage, opts: { takeOverSending?: boolean } = {}): Promise<SmsMessage | null> {
    const doc = firstClaim(m);
    // The unique _id makes the first insert the one claim; MongoDB guarantees it under races.
    if (await insertOnce(this.docs, doc)) return toMessage(doc);
    // Taken. Only a record whose attempt certainly did not send may be taken again, and a
    // single-document conditional update lets exactly one of the racing callers do it.
    const again = await this.docs.findOneAndUpdate(
      { _id: m.id, status: { $in: opts.takeOverSending ? ['retryable', 'sending'] : ['retryable'] } },
      // The provider may be another one now (the account's own was set or removed): its rule reads the reports.
      {
        // The text of this attempt carries this attempt's short link: a click names its code.
        $set: { status: 'sending', text: m.text, provider: m.provider, dlr: dlrOf(m), ...costOf(m), ...linkOf(m), updated_at: m.createdAt },
        $inc: { attempts: 1 },
      },
      { returnDocument: 'after' },
    );
    return again ? toMessage(again) : null;
  }

  async claimMany(msgs: NewMessage[]): Promise<(SmsMessage | null)[]> {
    const docs = msgs.map(firstClaim);
    // One unordered insert; the unique _id lets each record be created by one claimer only.
    const inserted = await insertManyOnce(this.docs, docs);
    return docs.map((d, i) => (inserted[i] ? toMessage(d) : null));
  }

  async recordMany(msgs: SmsMessage[]): Promise<boolean[]> {
    return insertManyOnce(this.docs, msgs.map(toDoc));
  }

  async finishMany(items: FinishedAttempt[]): Promise<void> {
    if (items.length === 0) return;
    // Conditional on our claim: a delivery report that overtook the provider's answer stays.
    await this.docs.bulkWrite(
      items.map((o) => ({
        updateOne: {
          filter: { _id: o.id, status: 'sending' as const, attempts: o.attempt },
          update: withFacts(
            { status: o.status, provider_message_id: o.providerMessageId ?? null, error: o.error ?? null, updated_at: o.at },
            finishedFacts(o.status, o.at, o.segments),
          ),
        },
      })),
      { ordered: false },
    );
  }

  async findMany(ids: string[]): Promise<SmsMessage[]> {
    if (ids.length === 0) return [];
    // In finds of IDS_PER_FIND at once: the local server's cost of one `$in` grows faster than its
    // length (4,000 ids of a sharing's 1,000 recipients: 2.3 s in one find, 0.15 s in 40 of 100).
    const finds: Promise<MessageDoc[]>[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_FIND)
      finds.push(this.docs.find({ _id: { $in: ids.slice(i, i + IDS_PER_FIND) } }).toArray());
    return (await Promise.all(finds)).flat().map(toMessage);
  }

  async applyDeliveryReport(id: string, status: DeliveryStatus, at: Date, error?: DeliveryError): Promise<SmsMessage | null> {
    // One winner among repeated or concurrent reports (the status filter); the same write owes the
    // event and records the facts. Whether it records `sent` too depends on `sent_at`, which a
    // racing finish may set once between two tries: sent, then not yet, then sent again covers it.
    const status_ = { $in: [...REPORTABLE_STATUSES] };
    const apply = async (firstSent: boolean) => {
      const segments = firstSent ? (await this.docs.findOne({ _id: id }, { projection: { segments: 1 } }))?.segments : undefined;
      const facts = reportedFacts(status, at, firstSent ? { segments } : null);
      return this.docs.findOneAndUpdate(
        // `null`: not set (missing); the range: a date.
        { _id: id, status: status_, sent_at: firstSent ? null : { $gte: new Date(0) } } as Filter<MessageDoc>,
        {
          $set: { status, updated_at: at, report_owed: at, ...(error && { dlr_error: { ...error } }), ...facts.$set },
          $push: facts.$push,
        },
        { returnDocument: 'after' },
      );
    };
    const doc = (await apply(false)) ?? (await apply(true)) ?? (await apply(false));
    return doc ? toMessage(doc) : null;
  }

  async reportPublished(id: string, status: DeliveryStatus): Promise<void> {
    await this.docs.updateOne({ _id: id, status }, { $unset: { report_owed: '' } });
  }

  async unpublishedReports(before: Date, limit: number): Promise<SmsMessage[]> {
    // Index `report_owed`: partial, so it holds only the records whose event is owed (the query
    // names the index's filter, `$gte` the epoch, so the planner may use it).
    const docs = await this.docs
      .find({ report_owed: { $gte: new Date(0), $lte: before } })
      .sort({ report_owed: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toMessage);
  }

  async findById(id: string): Promise<SmsMessage | null> {
    const doc = await this.docs.findOne({ _id: id });
    return doc ? toMessage(doc) : null;
  }

  async cancelUnclaimed(c: {
    accountId: string;
    sharingId: string;
    campaignId: string;
    phones: string[];
    at: Date;
  }): Promise<SmsMessage[]> {
    // A record in place of each one not yet claimed: a later claim finds it taken.
    const records = c.phones.map((phone) => unsentRecord({ ...c, phone, status: 'cancelled' }));
    const inserted = await insertManyOnce(this.docs, records.map(toDoc));
    // One whose attempt certainly did not send is not tried again.
    await this.docs.updateMany({ sharing_id: c.sharingId, status: 'retryable' }, { $set: { status: 'cancelled', updated_at: c.at } });
    return records.filter((_, k) => inserted[k]);
  }

  async accountsThatTexted(phone: string): Promise<string[]> {
    // Covered by the (phone, account_id) index.
    const docs = await this.docs.find({ phone }, { projection: { _id: 0, account_id: 1 } }).toArray();
    return [...new Set(docs.map((d) => d.account_id))];
  }

  async firstsByStatus(sharingId: string): Promise<Partial<Record<MessageStatus, number>>> {
    // Index `sharing`, one pass; a first message has no `reminder` field (or 0 on none).
    const groups = await this.docs
      .aggregate<{ _id: { status: MessageStatus; reminder?: number | null }; n: number }>([
        { $match: { sharing_id: sharingId } },
        { $group: { _id: { status: '$status', reminder: '$reminder' }, n: { $sum: 1 } } },
      ])
      .toArray();
    const counts: Partial<Record<MessageStatus, number>> = {};
    for (const g of groups) if (!g._id.reminder) counts[g._id.status] = (counts[g._id.status] ?? 0) + g.n;
    return counts;
  }

  async firstsWithStatus(q: { sharingId: string; status: MessageStatus; after: string; limit: number; near?: string }): Promise<string[]> {
    // Index `sharing_status_id`: the equalities, then one `_id` range (`<sharing>.<phone>`, phone
    // order) per window (phone-windows.ts), widening until the page is found. Reminders' records
    // (`<sharing>.<phone>.r<n>`) share the ranges and are left out here.
    const found: string[] = [];
    for (const w of phoneWindows(q.after, q.near)) {
      const range = {
        [w.inclusive ? '$gte' : '$gt']: `${q.sharingId}.${w.from}`,
        $lt: w.to === null ? `${q.sharingId}/` : `${q.sharingId}.${w.to}`,
      };
      const docs = await this.docs
        .find({ sharing_id: q.sharingId, status: q.status, _id: range } as Filter<MessageDoc>, { projection: { phone: 1, reminder: 1 } })
        .sort({ _id: 1 })
        .toArray();
      for (const d of docs) if (!d.reminder) found.push(d.phone);
      if (found.length >= q.limit) break;
    }
    return found.slice(0, q.limit);
  }

  async listBySharing(sharingId: string): Promise<SmsMessage[]> {
    return (await this.docs.find({ sharing_id: sharingId }).sort({ _id: 1 }).toArray()).map(toMessage);
  }
}

function firstClaim(m: NewMessage): MessageDoc {
  return toDoc({ ...m, status: 'sending', attempts: 1, providerMessageId: null, error: null, updatedAt: m.createdAt });
}

function toDoc(m: SmsMessage): MessageDoc {
  return {
    _id: m.id,
    account_id: m.accountId,
    sharing_id: m.sharingId,
    campaign_id: m.campaignId,
    phone: m.phone,
    text: m.text,
    provider: m.provider,
    status: m.status,
    attempts: m.attempts,
    provider_message_id: m.providerMessageId,
    error: m.error,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    ...(m.deliveryRule && { dlr: dlrOf(m) }),
    ...linkOf(m),
    ...(m.reminder && { reminder: m.reminder }),
    ...costOf(m),
    ...insertedFacts(m.status, m.updatedAt, m.segments),
  };
}

/** A claimed record's outcome with the facts it records (one update). */
const withFacts = (set: Partial<MessageDoc>, facts: ReturnType<typeof finishedFacts>) => ({
  $set: { ...set, ...facts.$set },
  ...(facts.$push && { $push: facts.$push }),
});

/** The short link in the text, and on a first message its code, which a click names (reminders repeat the link). */
const linkOf = (m: Pick<SmsMessage, 'link' | 'reminder'>): Pick<MessageDoc, 'link' | 'link_code'> =>
  m.link ? { link: m.link, ...(!m.reminder && { link_code: m.link.slice(m.link.lastIndexOf('/') + 1) }) } : {};

/** A text's cost, when the record has one (a message taken again by another provider may cost otherwise). */
const costOf = (m: Pick<SmsMessage, 'encoding' | 'segments'>): Pick<MessageDoc, 'encoding' | 'segments'> =>
  m.encoding && m.segments !== undefined ? { encoding: m.encoding, segments: m.segments } : {};

const dlrOf = (m: Pick<SmsMessage, 'deliveryRule'>): MessageDoc['dlr'] => {
  const r = m.deliveryRule;
  if (!r) return null;
  return {
    status_param: r.statusParam,
    delivered: [...r.delivered],
    failed: [...r.failed],
    ...(r.errorParam && { error_param: r.errorParam }),
    ...(r.descriptionParam && { description_param: r.descriptionParam }),
  };
};

function ruleOf(d: NonNullable<MessageDoc['dlr']>): NonNullable<SmsMessage['deliveryRule']> {
  return {
    statusParam: d.status_param,
    delivered: d.delivered,
    failed: d.failed,
    ...(d.error_param && { errorParam: d.error_param }),
    ...(d.description_param && { descriptionParam: d.description_param }),
  };
}

function toMessage(d: MessageDoc): SmsMessage {
  return {
    id: d._id,
    accountId: d.account_id,
    sharingId: d.sharing_id,
    campaignId: d.campaign_id,
    phone: d.phone,
    text: d.text,
    provider: d.provider,
    status: d.status,
    attempts: d.attempts,
    providerMessageId: d.provider_message_id,
    error: d.error,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    ...(d.dlr && { deliveryRule: ruleOf(d.dlr) }),
    ...(d.dlr_error && { deliveryError: { ...d.dlr_error } }),
    ...(d.link && { link: d.link }),
    ...(d.reminder && { reminder: d.reminder }),
    ...costOf(d),
  };
}
