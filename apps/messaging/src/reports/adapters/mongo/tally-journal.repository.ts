import type { Collection, Db } from 'mongodb';
import type { TakenEntries, TallyJournal, TallyJournalEntry } from '../../tally.ports.js';
import type { Counts, Increment, OwedEntry } from '../../domain/tally.js';

type RecordColl = 'sms_messages' | 'sharings';
type CounterColl = 'campaign_tallies' | 'sharing_tallies';

/** `tally_journal`: one relay round, written before any counter moves, deleted once it is finished. */
interface JournalDoc {
  _id: string;
  created_at: Date;
  increments: { coll: CounterColl; _id: string; set: { account_id: string; campaign_id: string; start?: Date }; inc: Counts }[];
  records: { coll: RecordColl; _id: string; owed: OwedEntry[] }[];
}

export class MongoTallyJournal implements TallyJournal {
  private readonly docs: Collection<JournalDoc>;

  constructor(db: Db) {
    this.docs = db.collection<JournalDoc>('tally_journal');
  }

  async unfinished(): Promise<TallyJournalEntry[]> {
    return (await this.docs.find({}).sort({ created_at: 1 }).toArray()).map(fromDoc);
  }

  async open(j: TallyJournalEntry): Promise<void> {
    await this.docs.insertOne(toDoc(j));
  }

  async close(token: string): Promise<void> {
    await this.docs.deleteOne({ _id: token });
  }
}

const counterColl = (kind: Increment['kind']): CounterColl => (kind === 'campaign' ? 'campaign_tallies' : 'sharing_tallies');
const recordColl = (kind: TakenEntries['kind']): RecordColl => (kind === 'message' ? 'sms_messages' : 'sharings');

function toDoc(j: TallyJournalEntry): JournalDoc {
  return {
    _id: j.token,
    created_at: j.createdAt,
    increments: j.increments.map((i) => ({
      coll: counterColl(i.kind),
      _id: i.key,
      set: { account_id: i.accountId, campaign_id: i.campaignId, ...(i.start && { start: i.start }) },
      inc: i.inc,
    })),
    records: j.records.map((r) => ({ coll: recordColl(r.kind), _id: r.id, owed: r.owed })),
  };
}

function fromDoc(d: JournalDoc): TallyJournalEntry {
  return {
    token: d._id,
    createdAt: d.created_at,
    increments: d.increments.map((i) => ({
      kind: i.coll === 'campaign_tallies' ? 'campaign' : 'sharing',
      key: i._id,
      accountId: i.set.account_id,
      campaignId: i.set.campaign_id,
      ...(i.set.start && { start: i.set.start }),
      inc: i.inc,
    })),
    // The entries exactly as read from their records: `$pullAll` removes equal documents only.
    records: d.records.map((r) => ({ kind: r.coll === 'sms_messages' ? 'message' : 'sharing', id: r._id, owed: r.owed })),
  };
}
