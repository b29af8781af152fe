import { readStackFile } from '@feedback/dev-stack';
import { MongoClient } from 'mongodb';
import { startBareServer } from './bare-server.js';
import { alternate, report } from './compare.js';
import { runLoad } from './load.js';
import { cpuPerRequest, formatCpuPerRequest } from './process-stats.js';
import { adminPost, benchCampaign } from './stack-api.js';

const RECIPIENTS = 1_000_000;
const DAYS = 90;
const QUARTER_MS = 15 * 60_000;
const BUCKETS = DAYS * 96;
/** The messaging service's database in the running stack (infra/apps.sh: MONGO_DB's default). */
const MESSAGING_DB = process.env.BENCH_MESSAGING_DB ?? 'messaging';
/** The goal: a dashboard's report of a quarter of a year answers within this, at the 99th percentile. */
const P99_GOAL_MS = 50;

/** A share of `total` for bucket `k` of `n` by weight, exact in sum (the remainder spread from the first buckets). */
function spread(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.floor((total * w) / sum));
  let rest = total - out.reduce((a, b) => a + b, 0);
  for (let k = 0; rest > 0; k = (k + 1) % out.length, rest--) out[k]! += 1;
  return out;
}

/**
 * 90 days of a campaign of 1,000,000 recipients as the relay leaves its counters: 8,640 documents
 * of `campaign_tallies`, one per quarter hour, sending in the daytime (09:00-21:00 UTC, weighted to
 * the afternoon), about 98% sent, 96% of those delivered, 3% failed, 1% opted out, 35% clicked,
 * 12% answered with an NPS score of 9-10 for half of them, 0-6 for a fifth.
 */
function tallies(accountId: string, campaignId: string, first: number) {
  const hourOf = (k: number) => new Date(first + k * QUARTER_MS).getUTCHours();
  const weights = Array.from({ length: BUCKETS }, (_, k) => (hourOf(k) >= 9 && hourOf(k) < 21 ? 1 + (hourOf(k) - 9) / 6 : 0.02));
  const recipients = spread(RECIPIENTS, weights);
  return recipients.map((n, k) => {
    const sent = Math.round(n * 0.98);
    const answered = Math.round(sent * 0.12);
    const promoters = Math.round(answered * 0.5);
    const detractors = Math.round(answered * 0.2);
    return {
      _id: `${campaignId}|${new Date(first + k * QUARTER_MS).toISOString()}`,
      account_id: accountId,
      campaign_id: campaignId,
      start: new Date(first + k * QUARTER_MS),
      recipients: n,
      sent,
      delivered: Math.round(sent * 0.96),
      failed: Math.round(sent * 0.03),
      opted_out: Math.round(n * 0.01),
      clicked: Math.round(sent * 0.35),
      answered,
      segments: Math.round(sent * 1.3),
      promoters,
      passives: answered - promoters - detractors,
      detractors,
      applied: [],
    };
  });
}

/**
 * `GET /v1/sms_campaigns/{id}/report?interval=day` over 90 days of a campaign of 1,000,000
 * recipients (docs/api.md "Campaign report"), through the gateway (token → gRPC messaging →
 * campaign lookup → the counters of the settled days from messaging's memory, today's from the
 * database → 91 day buckets), alternately with a bare Node server answering the same JSON; before
 * that, the first report (every document read) and a driver find of all 8,640 documents, timed.
 * The counters are written straight into messaging's database for a campaign made through the
 * admin API, and removed afterwards.
 */
export async function campaignReportBench(opts: { durationSec: number; rounds: number }) {
  const stack = readStackFile();
  const admin = adminPost(stack.base_url!, stack.admin_token!);
  const account = await admin('/accounts', { name: 'bench campaign report' });
  const token = (await admin(`/accounts/${account.id}/tokens`, { kind: 'api', name: 'bench' })).token!;
  const campaign = await benchCampaign(admin, account.id!);
  const mongo = new MongoClient(stack.mongo_url, { maxPoolSize: 16 });
  await mongo.connect();
  const counters = mongo.db(MESSAGING_DB).collection<Record<string, unknown> & { _id: string }>('campaign_tallies');
  try {
    const end = Date.now();
    // The 90 days' quarter hours up to the one holding now: the report's range starts at the first.
    const first = Math.floor(end / QUARTER_MS) * QUARTER_MS - (BUCKETS - 1) * QUARTER_MS;
    const docs = tallies(account.id!, campaign.id!, first);
    const started = performance.now();
    for (let i = 0; i < docs.length; i += 1_000) await counters.insertMany(docs.slice(i, i + 1_000), { ordered: false });
    console.log(
      `inserted ${docs.length} counter documents (${RECIPIENTS} recipients) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const from = new Date(first).toISOString();
    const to = new Date(end).toISOString();
    const url = `${stack.base_url}/v1/sms_campaigns/${campaign.id}/report?interval=day&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const headers = { authorization: `Token token=${token}` };
    // The first report reads every document (messaging keeps the settled days after it).
    const coldStarted = performance.now();
    const body = await (await fetch(url, { headers })).text();
    const cold = performance.now() - coldStarted;
    const check = JSON.parse(body) as { totals: { recipients: number }; series: unknown[] };
    if (check.totals?.recipients !== RECIPIENTS)
      throw new Error(`the report counts ${check.totals?.recipients} recipients, not ${RECIPIENTS}`);
    console.log(`the first report: ${check.series.length} days, ${check.totals.recipients} recipients, in ${cold.toFixed(0)} ms`);

    // What reading them all costs, made directly with the driver (the messaging reader's find).
    const direct: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const rows = await counters
        .find(
          { campaign_id: campaign.id, start: { $gte: new Date(from), $lt: new Date(to) } },
          { projection: { applied: 0 }, sort: { start: 1 }, batchSize: 10_000 },
        )
        .toArray();
      if (rows.length !== BUCKETS) throw new Error(`the find read ${rows.length} documents`);
      direct.push(performance.now() - t);
    }
    console.log(`a driver find of the ${BUCKETS} documents: ${direct.map((ms) => ms.toFixed(0)).join(', ')} ms`);

    const bare = await startBareServer({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body });
    try {
      const results = [];
      for (const concurrency of [1, 4]) {
        const { baseline, subject, ratio } = await alternate(
          'campaign-report',
          { label: 'bare node http (same JSON)', run: (sec) => runLoad({ url: bare.url, connections: concurrency, durationSec: sec }) },
          {
            label: 'GET …/report?interval=day (90 d)',
            run: (sec) => runLoad({ url, headers, connections: concurrency, durationSec: sec }),
          },
          { rounds: opts.rounds, durationSec: opts.durationSec, warmupSec: 2 },
        );
        report(`campaign-report-c${concurrency}`, [baseline, subject], ratio, {
          documents: BUCKETS,
          rounds: opts.rounds,
          durationSec: opts.durationSec,
          concurrency,
        });
        results.push({ concurrency, baseline, subject, ratio });
      }
      const p99 = results[0]!.subject.p99;
      console.log(
        `report of 90 days, one caller: p99 ${p99.toFixed(2)} ms — ${p99 <= P99_GOAL_MS ? 'meets' : 'MISSES'} the ${P99_GOAL_MS} ms goal`,
      );
      const { perRequest } = await cpuPerRequest(['gateway', 'messaging', 'mongo'], () =>
        runLoad({ url, headers, connections: 1, durationSec: opts.durationSec }),
      );
      console.log(`CPU per request: ${formatCpuPerRequest(perRequest)}`);
      return { coldMs: cold, directMs: direct, results, cpuPerRequestMs: perRequest };
    } finally {
      bare.stop();
    }
  } finally {
    await counters.deleteMany({ campaign_id: campaign.id }).catch(() => undefined);
    await mongo.close();
  }
}
