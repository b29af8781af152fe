import { duplicateKeyIndexes } from '@feedback/kit-stores';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { TallyCounters } from '../../tally.ports.js';
import type { Counts, Increment } from '../../domain/tally.js';

/**
 * A counter document: `campaign_tallies` (`<campaign id>|<bucket start ISO>`, with `start`) or
 * `sharing_tallies` (the sharing id). Absent counters read as 0; `applied` holds the relay's
 * latest tokens and is no reader's business.
 */
export interface TallyDoc extends Counts {
  _id: string;
  account_id: string;
  campaign_id: string;
  start?: Date;
  applied: string[];
}

/**
 * Tokens a counter keeps. The relay finishes a journal before it writes a new one, so a round
 * being finished again always finds its token among the last few; more is margin.
 */
const APPLIED_KEPT = 20;

export const tallyCollections = (db: Db) => ({
  campaign: db.collection<TallyDoc>('campaign_tallies'),
  sharing: db.collection<TallyDoc>('sharing_tallies'),
});

export class MongoTallyCounters implements TallyCounters {
  private readonly colls: Record<Increment['kind'], Collection<TallyDoc>>;

  constructor(db: Db) {
    this.colls = tallyCollections(db);
  }

  async apply(token: string, increments: Increment[]): Promise<void> {
    await Promise.all(
      (['campaign', 'sharing'] as const).map(async (kind) => {
        const ops: AnyBulkWriteOperation<TallyDoc>[] = increments
          .filter((i) => i.kind === kind)
          .map((i) => ({
            updateOne: {
              // A counter that holds the token has this round already: no match, and the upsert's
              // insert of an existing _id is refused (duplicate key), which is that answer too.
              filter: { _id: i.key, applied: { $ne: token } },
              update: {
                $inc: i.inc,
                $setOnInsert: { account_id: i.accountId, campaign_id: i.campaignId, ...(i.start && { start: i.start }) },
                $push: { applied: { $each: [token], $slice: -APPLIED_KEPT } },
              },
              upsert: true,
            },
          }));
        if (ops.length === 0) return;
        try {
          await this.colls[kind].bulkWrite(ops, { ordered: false });
        } catch (err) {
          duplicateKeyIndexes(err); // rethrows anything but duplicate keys
        }
      }),
    );
  }
}
