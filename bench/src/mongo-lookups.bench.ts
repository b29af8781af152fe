import { readStackFile } from '@feedback/dev-stack';
import { MongoClient, type Collection, type Filter } from 'mongodb';
import { alternate, report } from './compare.js';
import { runLoop } from './driver-loop.js';
import { pidOf, rssMiB } from './process-stats.js';

const DOCS = Number(process.env.BENCH_LOOKUP_DOCS ?? 1_000_000);
const ACCOUNTS = 10;
const BATCH = 1_000;
const DB = `bench_lookups_${DOCS}`;

interface Person {
  _id: number;
  account: string;
  phone: string;
  name: string;
}

const phoneOf = (i: number) => `90532${String(i).padStart(7, '0')}`;
const accountOf = (i: number) => `acct-${i % ACCOUNTS}`;

/**
 * The local MongoDB server at a realistic scale: 1,000,000 small documents with a compound
 * index (account, phone), then single lookups by that index through the driver (the query
 * every per-account customer lookup makes), against the floor under it: lookups by `_id` on
 * the same collection, alternately. Loaded once (insertMany in batches of 1,000, unordered)
 * and kept in database `bench_lookups_<n>` for later runs; `BENCH_LOOKUP_RELOAD=1` reloads.
 */
export async function mongoLookupsBench(opts: { durationSec: number; rounds: number }) {
  const stack = readStackFile();
  const client = new MongoClient(stack.mongo_url, { maxPoolSize: 16 });
  await client.connect();
  const mongoPid = pidOf('mongo');
  const rssIdle = mongoPid ? rssMiB(mongoPid) : 0;
  try {
    const db = client.db(DB);
    const people = db.collection<Person>('people');
    const meta = db.collection<{ _id: string; docs: number; load_seconds: number }>('meta');
    let loaded = await meta.findOne({ _id: 'loaded' });
    if (!loaded || loaded.docs !== DOCS || process.env.BENCH_LOOKUP_RELOAD === '1') {
      await db.dropDatabase();
      const seconds = await load(people);
      await meta.insertOne({ _id: 'loaded', docs: DOCS, load_seconds: seconds });
      loaded = { _id: 'loaded', docs: DOCS, load_seconds: seconds };
      console.log(`loaded ${DOCS} documents in ${seconds.toFixed(1)} s (${Math.round(DOCS / seconds)} docs/s)`);
    } else {
      console.log(`reusing ${DOCS} documents loaded earlier in ${loaded.load_seconds.toFixed(1)} s`);
    }
    const rssLoaded = mongoPid ? rssMiB(mongoPid) : 0;

    const pick = () => Math.floor(Math.random() * DOCS);
    /** Looks up random documents by `filter`, checking each finds its own. */
    const lookups = (filter: (i: number) => Filter<Person>) => (concurrency: number, durationSec: number) =>
      runLoop({
        concurrency,
        durationSec,
        op: async () => {
          const i = pick();
          const doc = await people.findOne(filter(i));
          if (doc?._id !== i) throw new Error(`lookup of ${i} found ${doc?._id}`);
        },
      });
    const byIndex = lookups((i) => ({ account: accountOf(i), phone: phoneOf(i) }));
    const byId = lookups((i) => ({ _id: i }));

    const results = [];
    for (const concurrency of [1, 16]) {
      const {
        baseline: b,
        subject: s,
        ratio,
      } = await alternate(
        'mongo-lookups',
        { label: 'findOne by _id (baseline)', run: (sec) => byId(concurrency, sec) },
        { label: 'findOne by (account, phone)', run: (sec) => byIndex(concurrency, sec) },
        { rounds: opts.rounds, durationSec: opts.durationSec, warmupSec: 1 },
      );
      report(`mongo-lookups-c${concurrency}`, [b, s], ratio, {
        docs: DOCS,
        rounds: opts.rounds,
        durationSec: opts.durationSec,
        concurrency,
      });
      results.push({ concurrency, baseline: b, subject: s, ratio });
    }
    const verdict = results[0]!.subject.p99 <= 10 ? 'meets' : 'MISSES';
    console.log(`single lookups by (account, phone): p99 ${results[0]!.subject.p99.toFixed(2)} ms — ${verdict} the 10 ms goal`);
    if (mongoPid)
      console.log(
        `mongo server resident memory: idle ${rssIdle.toFixed(0)} MiB, after load and lookups ${rssMiB(mongoPid).toFixed(0)} MiB (after load ${rssLoaded.toFixed(0)} MiB)`,
      );
    return { load_seconds: loaded.load_seconds, results };
  } finally {
    await client.close();
  }
}

async function load(people: Collection<Person>): Promise<number> {
  await people.createIndex({ account: 1, phone: 1 }, { name: 'account_phone', unique: true });
  const started = performance.now();
  let next = 0;
  // Two batches in flight keep the server busy while the driver encodes the next one.
  const worker = async () => {
    for (;;) {
      const from = next;
      if (from >= DOCS) return;
      next += BATCH;
      const docs = Array.from({ length: Math.min(BATCH, DOCS - from) }, (_, k) => {
        const i = from + k;
        return { _id: i, account: accountOf(i), phone: phoneOf(i), name: `Customer ${i}` };
      });
      await people.insertMany(docs, { ordered: false });
      if ((from / BATCH) % 100 === 0) process.stdout.write(`\rloading ${from}/${DOCS}`);
    }
  };
  await Promise.all([worker(), worker()]);
  process.stdout.write('\n');
  return (performance.now() - started) / 1000;
}
