import { randomBytes } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { MongoClient } from 'mongodb';
import { startBareServer } from './bare-server.js';
import { alternate, report } from './compare.js';
import { runLoad } from './load.js';
import { cpuPerRequest, formatCpuPerRequest } from './process-stats.js';
import { adminPost } from './stack-api.js';

const CLICKS = 10_000_000;
const DAYS = 90;
const HOUR_MS = 3_600_000;
const HOURS = DAYS * 24;
/** The shortener service's database in the running stack (infra/apps.sh: MONGO_DB's default). */
const SHORTENER_DB = process.env.BENCH_SHORTENER_DB ?? 'shortener';
/** The goal: a link's stats over a quarter of a year answer within this, at the 99th percentile. */
const P99_GOAL_MS = 50;

/** A share of `total` for each weight, exact in sum (the remainder spread from the first). */
function spread(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.floor((total * w) / sum));
  let rest = total - out.reduce((a, b) => a + b, 0);
  for (let k = 0; rest > 0; k = (k + 1) % out.length, rest--) out[k]! += 1;
  return out;
}

/** `n` split over `names` by falling shares (the first most), as `{name: clicks}`. */
function names(n: number, list: string[]): Record<string, number> {
  const shares = spread(
    n,
    list.map((_, i) => 1 / (i + 1)),
  );
  return Object.fromEntries(list.map((name, i) => [name, shares[i]!]).filter(([, c]) => (c as number) > 0));
}

const DEVICES = ['mobile', 'desktop', 'tablet', 'unknown'];
const SYSTEMS = ['iOS', 'Android', 'Windows', 'Mac OS', 'Linux', 'unknown'];
const BROWSERS = [
  'Mobile Safari',
  'Chrome',
  'Samsung Browser',
  'Chrome WebView',
  'Firefox',
  'Edge',
  'Instagram',
  'Facebook',
  'Opera',
  'unknown',
];
// Field names as the shortener stores them: a "." is %2E (adapters/mongo/link-hours.repository.ts).
const REFERRERS = ['(direct)', ...Array.from({ length: 39 }, (_, i) => `www%2Esite${i}%2Eexample`)];
const COUNTRIES = [
  'TR',
  'DE',
  'NL',
  'GB',
  'FR',
  'US',
  'AZ',
  'RU',
  'IT',
  'ES',
  'AT',
  'BE',
  'CH',
  'SE',
  'NO',
  'DK',
  'PL',
  'GR',
  'BG',
  'RO',
  'UA',
  'GE',
  'IR',
  'IQ',
  'unknown',
];

/**
 * 90 days of a link followed 10,000,000 times as the click consumer leaves its counters: 2,160
 * `link_hours` documents, one per hour, busier in the daytime (09:00-21:00 UTC), each with its
 * devices, systems, browsers, 40 referrers and 25 countries, and a fifth as many excluded redirects.
 */
function linkHours(accountId: string, code: string, first: number) {
  const hourOf = (k: number) => new Date(first + k * HOUR_MS).getUTCHours();
  const clicks = spread(
    CLICKS,
    Array.from({ length: HOURS }, (_, k) => (hourOf(k) >= 9 && hourOf(k) < 21 ? 1 + (hourOf(k) - 9) / 6 : 0.1)),
  );
  return clicks.map((n, k) => ({
    _id: `${code}|${new Date(first + k * HOUR_MS).toISOString()}`,
    account_id: accountId,
    code,
    start: new Date(first + k * HOUR_MS),
    clicks: n,
    bots_excluded: Math.round(n / 5),
    devices: names(n, DEVICES),
    operating_systems: names(n, SYSTEMS),
    browsers: names(n, BROWSERS),
    referrers: names(n, REFERRERS),
    countries: names(n, COUNTRIES),
    checkpoints: { p0: k },
  }));
}

/**
 * `GET /v1/links/{code}/stats?interval=day` over 90 days of a link with 10,000,000 clicks
 * (docs/api.md "A link's stats"), through the gateway (token → gRPC shortener → the link's owner →
 * the settled days' sums from the shortener's memory, today's hours from the database → 91 day
 * buckets and five lists), alternately with a bare Node server answering the same JSON; before
 * that, the first answer (every document read) and a driver find of all 2,160 documents, timed.
 * The link and its counters are written straight into the shortener's database for an account
 * made through the admin API, and removed afterwards.
 */
export async function linkStatsBench(opts: { durationSec: number; rounds: number }) {
  const stack = readStackFile();
  const admin = adminPost(stack.base_url!, stack.admin_token!);
  const account = await admin('/accounts', { name: 'bench link stats' });
  const token = (await admin(`/accounts/${account.id}/tokens`, { kind: 'api', name: 'bench' })).token!;
  const code = `bench${randomBytes(6).toString('hex')}`;
  const mongo = new MongoClient(stack.mongo_url, { maxPoolSize: 16 });
  await mongo.connect();
  const db = mongo.db(SHORTENER_DB);
  const links = db.collection<{ _id: string; full_url: string; account_id: string; domain: null; created_at: Date }>('links');
  const hours = db.collection<Record<string, unknown> & { _id: string }>('link_hours');
  try {
    const end = Date.now();
    // The 90 days' hours up to the one holding now: the stats' range starts at the first.
    const first = Math.floor(end / HOUR_MS) * HOUR_MS - (HOURS - 1) * HOUR_MS;
    await links.insertOne({
      _id: code,
      full_url: 'https://example.com/bench',
      account_id: account.id!,
      domain: null,
      created_at: new Date(first),
    });
    const docs = linkHours(account.id!, code, first);
    const started = performance.now();
    for (let i = 0; i < docs.length; i += 500) await hours.insertMany(docs.slice(i, i + 500), { ordered: false });
    console.log(`inserted ${docs.length} hour documents (${CLICKS} clicks) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const from = new Date(first).toISOString();
    const to = new Date(end).toISOString();
    const url = `${stack.base_url}/v1/links/${code}/stats?interval=day&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const headers = { authorization: `Token token=${token}` };
    // The first answer reads every document (the shortener keeps the settled days after it).
    const coldStarted = performance.now();
    const body = await (await fetch(url, { headers })).text();
    const cold = performance.now() - coldStarted;
    const check = JSON.parse(body) as { clicks: number; series: unknown[] };
    if (check.clicks !== CLICKS) throw new Error(`the stats count ${check.clicks} clicks, not ${CLICKS}`);
    console.log(`the first answer: ${check.series.length} days, ${check.clicks} clicks, in ${cold.toFixed(0)} ms`);

    // What reading them all costs, made directly with the driver (the shortener's range read).
    const direct: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const rows = await hours
        .find(
          { code, start: { $gte: new Date(from), $lt: new Date(to) } },
          { projection: { checkpoints: 0 }, sort: { code: 1, start: 1 }, batchSize: 10_000 },
        )
        .toArray();
      if (rows.length !== HOURS) throw new Error(`the find read ${rows.length} documents`);
      direct.push(performance.now() - t);
    }
    console.log(`a driver find of the ${HOURS} documents: ${direct.map((ms) => ms.toFixed(0)).join(', ')} ms`);

    const bare = await startBareServer({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body });
    try {
      const results = [];
      for (const concurrency of [1, 4]) {
        const { baseline, subject, ratio } = await alternate(
          'link-stats',
          { label: 'bare node http (same JSON)', run: (sec) => runLoad({ url: bare.url, connections: concurrency, durationSec: sec }) },
          {
            label: 'GET /v1/links/{code}/stats?interval=day (90 d)',
            run: (sec) => runLoad({ url, headers, connections: concurrency, durationSec: sec }),
          },
          { rounds: opts.rounds, durationSec: opts.durationSec, warmupSec: 2 },
        );
        report(`link-stats-c${concurrency}`, [baseline, subject], ratio, {
          documents: HOURS,
          rounds: opts.rounds,
          durationSec: opts.durationSec,
          concurrency,
        });
        results.push({ concurrency, baseline, subject, ratio });
      }
      const p99 = results[0]!.subject.p99;
      console.log(
        `stats of 90 days, one caller: p99 ${p99.toFixed(2)} ms — ${p99 <= P99_GOAL_MS ? 'meets' : 'MISSES'} the ${P99_GOAL_MS} ms goal`,
      );
      const { perRequest } = await cpuPerRequest(['gateway', 'shortener', 'mongo'], () =>
        runLoad({ url, headers, connections: 1, durationSec: opts.durationSec }),
      );
      console.log(`CPU per request: ${formatCpuPerRequest(perRequest)}`);
      return { coldMs: cold, directMs: direct, results, cpuPerRequestMs: perRequest };
    } finally {
      bare.stop();
    }
  } finally {
    await hours.deleteMany({ code }).catch(() => undefined);
    await links.deleteOne({ _id: code }).catch(() => undefined);
    await mongo.close();
  }
}
