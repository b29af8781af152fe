import { randomBytes } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { MongoClient } from 'mongodb';
import { alternate, report } from './compare.js';
import { runLoop } from './driver-loop.js';
import { runLoad } from './load.js';
import { cpuPerRequest, formatCpuPerRequest } from './process-stats.js';

/**
 * POST {shortener_url}/shorten (gateway → gRPC → shortener → db) vs the floor under it: an
 * insertOne of the same document with the MongoDB driver into the same server, at the same
 * concurrency, alternately. The local stack exempts 127.0.0.1 from the per-IP limit.
 */
export async function shortenBench(opts: { durationSec: number; rounds: number }) {
  const stack = readStackFile();
  const concurrency = 16;
  // With the services' write concern (kit-stores connectMongo): the same write, equally durable.
  const client = new MongoClient(stack.mongo_url, { maxPoolSize: concurrency, writeConcern: { w: 'majority', journal: true } });
  await client.connect();
  const db = client.db(`bench_shorten_${Date.now()}`);
  const links = db.collection<{ _id: string; full_url: string; account_id: null; domain: null; created_at: Date }>('links');
  const url = 'https://survey.example.com/s/7Hq2pX?lang=tr&utm_source=sms';
  const direct = (durationSec: number) =>
    runLoop({
      concurrency,
      durationSec,
      op: () =>
        links.insertOne({
          _id: randomBytes(6).toString('base64url'),
          full_url: url,
          account_id: null,
          domain: null,
          created_at: new Date(),
        }),
    });
  const viaApi = (durationSec: number) =>
    runLoad({
      url: `${stack.shortener_url}/shorten`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
      connections: concurrency,
      durationSec,
    });
  try {
    const {
      baseline: b,
      subject: s,
      ratio,
    } = await alternate(
      'shorten',
      { label: 'mongodb driver insertOne (direct)', run: direct },
      { label: 'POST /shorten (gateway → shortener)', run: viaApi },
      { rounds: opts.rounds, durationSec: opts.durationSec, warmupSec: 2 },
    );
    report('shorten', [b, s], ratio, { rounds: opts.rounds, durationSec: opts.durationSec, connections: concurrency });
    const { perRequest } = await cpuPerRequest(['gateway', 'shortener', 'mongo'], () => viaApi(opts.durationSec));
    console.log(`CPU per request: ${formatCpuPerRequest(perRequest)}`);
    return { baseline: b, subject: s, ratio, cpuPerRequestMs: perRequest };
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
}
