import type { Db } from 'mongodb';
import { addCounts, bucketStart, campaignKey, COUNTERS, npsClass, type Counter, type Counts } from '../../domain/tally.js';
import { tallyCollections } from './tally-counters.repository.js';

/** A campaign's counters: per 15-minute bucket (`<campaign id>|<start ISO>`) and per sharing. */
export interface CampaignTallies {
  buckets: Map<string, Counts>;
  sharings: Map<string, Counts>;
}

interface RecountedMessage {
  _id: string;
  sharing_id: string;
  reminder?: number;
  segments?: number;
  sent_at?: Date;
  delivered_at?: Date;
  failed_at?: Date;
  opted_out_at?: Date;
  clicked_at?: Date;
  answered_at?: Date;
  nps_score?: number;
}

const FACT_FIELDS = [
  ['sent', 'sent_at'],
  ['delivered', 'delivered_at'],
  ['failed', 'failed_at'],
  ['opted_out', 'opted_out_at'],
  ['clicked', 'clicked_at'],
  ['answered', 'answered_at'],
] as const;

/**
 * A campaign's counters counted again from the records, not from the owed entries: each first
 * message's facts at their times (the answer's NPS class with it), the segments of every record
 * that was sent (reminders too), the sharings' accepted recipients at acceptance. Once no record
 * owes entries, the relay's counters equal it exactly (the tests' truth; an operator's check).
 * One read of the campaign's sharings, then one per sharing over the `sharing` index.
 */
export async function recountCampaign(db: Db, accountId: string, campaignId: string): Promise<CampaignTallies> {
  const out: CampaignTallies = { buckets: new Map(), sharings: new Map() };
  const add = (sharingId: string, at: Date, counts: Counts) => {
    const key = campaignKey(campaignId, bucketStart(at));
    out.buckets.set(key, addCounts(out.buckets.get(key) ?? {}, counts));
    out.sharings.set(sharingId, addCounts(out.sharings.get(sharingId) ?? {}, counts));
  };
  const sharings = await db
    .collection<{ _id: string; account_id: string; campaign_id: string; created_at: Date; accepted: number }>('sharings')
    .find({ account_id: accountId, campaign_id: campaignId }, { projection: { created_at: 1, accepted: 1 } })
    .toArray();
  const messages = db.collection<RecountedMessage>('sms_messages');
  for (const s of sharings) {
    add(s._id, s.created_at, { recipients: s.accepted });
    for await (const m of messages.find({ sharing_id: s._id }, { projection: { text: 0, dlr: 0, dlr_error: 0, tally_owed: 0 } })) {
      if (m.sent_at) add(s._id, m.sent_at, { segments: m.segments ?? 0 });
      if (m.reminder) continue;
      for (const [counter, field] of FACT_FIELDS) {
        const at = m[field];
        if (at)
          add(s._id, at, {
            [counter]: 1,
            ...(counter === 'answered' && typeof m.nps_score === 'number' && { [npsClass(m.nps_score)]: 1 }),
          });
      }
    }
  }
  // A sharing that accepted nobody and sent nothing has no counter document either.
  for (const map of [out.buckets, out.sharings]) for (const [k, c] of map) if (Object.keys(c).length === 0) map.delete(k);
  return out;
}

/** A campaign's counter documents as the relay left them (zero counters and `applied` left out), for the comparison. */
export async function readCampaignTallies(db: Db, campaignId: string): Promise<CampaignTallies> {
  const { campaign, sharing } = tallyCollections(db);
  const [buckets, sharings] = await Promise.all([
    campaign.find({ campaign_id: campaignId }).toArray(),
    sharing.find({ campaign_id: campaignId }).toArray(),
  ]);
  const countsOf = (d: Counts): Counts => {
    const c: Counts = {};
    for (const name of COUNTERS as readonly Counter[]) if (d[name]) c[name] = d[name];
    return c;
  };
  const nonEmpty = (docs: (Counts & { _id: string })[]) =>
    new Map(docs.map((d) => [d._id, countsOf(d)] as const).filter(([, c]) => Object.keys(c).length > 0));
  return { buckets: nonEmpty(buckets), sharings: nonEmpty(sharings) };
}
