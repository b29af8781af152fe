import type { Collection, Db } from 'mongodb';
import type { CampaignTallyRow, TallyReader } from '../../report-reads.ports.js';
import type { ReportTotals } from '../../domain/report-totals.js';

/** A counter document as the relay writes it (`campaign_tallies`, `sharing_tallies`); absent counters are 0, `applied` is the relay's. */
interface CounterDoc {
  _id: string;
  account_id: string;
  campaign_id: string;
  start?: Date;
  recipients?: number;
  sent?: number;
  delivered?: number;
  failed?: number;
  opted_out?: number;
  clicked?: number;
  answered?: number;
  segments?: number;
  promoters?: number;
  passives?: number;
  detractors?: number;
}

const COUNTERS = {
  recipients: 1,
  sent: 1,
  delivered: 1,
  failed: 1,
  opted_out: 1,
  clicked: 1,
  answered: 1,
  segments: 1,
} as const;

const totalsOf = (d: CounterDoc): ReportTotals => ({
  recipients: d.recipients ?? 0,
  sent: d.sent ?? 0,
  delivered: d.delivered ?? 0,
  failed: d.failed ?? 0,
  optedOut: d.opted_out ?? 0,
  clicked: d.clicked ?? 0,
  answered: d.answered ?? 0,
  segments: d.segments ?? 0,
});

/** Every field in one literal, in one order: reports add up thousands of these, and objects of one shape are added up fast. */
const rowOf = (d: CounterDoc): CampaignTallyRow => ({
  start: d.start!,
  recipients: d.recipients ?? 0,
  sent: d.sent ?? 0,
  delivered: d.delivered ?? 0,
  failed: d.failed ?? 0,
  optedOut: d.opted_out ?? 0,
  clicked: d.clicked ?? 0,
  answered: d.answered ?? 0,
  segments: d.segments ?? 0,
  promoters: d.promoters ?? 0,
  passives: d.passives ?? 0,
  detractors: d.detractors ?? 0,
});

/**
 * Reads the counter documents the relay keeps (reports/domain/tally.ts): a campaign's range of
 * 15-minute buckets through the index `campaign_start`, a page of sharings' by `_id`. Only the
 * counters are fetched (not the relay's `applied` tokens), in batches as large as the range. The
 * account is checked on the documents read, not in the filter: the local server scans the whole
 * collection for a filter with a field its index lacks (the campaign or sharing was found in the
 * account already; its id is a UUID).
 */
export class MongoTallyReader implements TallyReader {
  private readonly campaigns: Collection<CounterDoc>;
  private readonly sharings: Collection<CounterDoc>;

  constructor(db: Db) {
    this.campaigns = db.collection<CounterDoc>('campaign_tallies');
    this.sharings = db.collection<CounterDoc>('sharing_tallies');
  }

  async campaignBuckets(accountId: string, campaignId: string, from: Date, to: Date): Promise<CampaignTallyRow[]> {
    const docs = await this.campaigns
      .find(
        { campaign_id: campaignId, start: { $gte: from, $lt: to } },
        {
          projection: { _id: 0, account_id: 1, start: 1, ...COUNTERS, promoters: 1, passives: 1, detractors: 1 },
          sort: { start: 1 },
          batchSize: 10_000,
        },
      )
      .toArray();
    return docs.filter((d) => d.account_id === accountId).map(rowOf);
  }

  async sharingTotals(accountId: string, sharingIds: string[]): Promise<Map<string, ReportTotals>> {
    const docs = await this.sharings.find({ _id: { $in: sharingIds } }, { projection: { _id: 1, account_id: 1, ...COUNTERS } }).toArray();
    return new Map(docs.filter((d) => d.account_id === accountId).map((d) => [d._id, totalsOf(d)]));
  }
}
