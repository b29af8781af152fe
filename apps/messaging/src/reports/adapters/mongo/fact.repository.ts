import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { AnswerFact, ClickFact, FactRecorder } from '../../ports.js';

/** The fields of an `sms_messages` record these facts write (the whole record: shared/adapters/mongo/message.repository.ts). */
interface FactFields {
  _id: string;
  account_id: string;
  /** The code of the first message's short link (set when the record is written; absent on reminders and older records). */
  link_code?: string;
  clicked_at?: Date | null;
  answered_at?: Date | null;
  nps_score?: number;
  /** What the counters are owed (docs/decisions.md "Campaign report counters"); the relay takes the entries. */
  tally_owed?: { f: string; at: Date; nps?: number }[];
}

/**
 * The clicked and answered facts on the message records: each fact's field is in its update's
 * filter (`null`: unset), and the same single-document update pushes the counters' owed entry,
 * so a fact and its entry are written together exactly once, whatever repeats the event. One
 * unordered bulk write per batch.
 */
export class MongoFactRepository implements FactRecorder {
  private readonly docs: Collection<FactFields>;

  constructor(db: Db) {
    this.docs = db.collection<FactFields>('sms_messages');
  }

  async recordClicks(facts: ClickFact[]): Promise<number> {
    // Served by the partial index `link_code` (an equality implies its `$gte: ''` filter).
    return this.write(
      facts.map(({ code, at }) => ({
        updateOne: {
          filter: { link_code: code, clicked_at: null },
          update: { $set: { clicked_at: at }, $push: { tally_owed: { f: 'clicked', at } } },
        },
      })),
    );
  }

  async recordAnswers(facts: AnswerFact[]): Promise<number> {
    return this.write(
      facts.map(({ messageId, accountId, at, nps }) => ({
        updateOne: {
          filter: { _id: messageId, account_id: accountId, answered_at: null },
          update: {
            $set: { answered_at: at, ...(nps !== undefined && { nps_score: nps }) },
            $push: { tally_owed: { f: 'answered', at, ...(nps !== undefined && { nps }) } },
          },
        },
      })),
    );
  }

  private async write(ops: AnyBulkWriteOperation<FactFields>[]): Promise<number> {
    if (ops.length === 0) return 0;
    const result = await this.docs.bulkWrite(ops, { ordered: false });
    return result.modifiedCount;
  }
}
