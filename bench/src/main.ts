import { flowDetailsBench } from './flow-details.bench.js';
import { mongoLookupsBench } from './mongo-lookups.bench.js';
import { redirectsBench } from './redirects.bench.js';
import { shortenBench } from './shorten.bench.js';
import { smsSharingBench } from './sms-sharing.bench.js';
import { uploadBench } from './upload.bench.js';

// `./stack bench [name...]`: runs the named benchmarks (default: all) against the running stack.
const BENCHES: Record<string, (o: { durationSec: number; rounds: number }) => Promise<unknown>> = {
  'flow-details': flowDetailsBench,
  'mongo-lookups': mongoLookupsBench,
  redirects: redirectsBench,
  shorten: shortenBench,
  'sms-sharing': smsSharingBench,
  upload: uploadBench,
};

const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const durationSec = Number(process.env.BENCH_DURATION_SEC ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
for (const name of names.length ? names : Object.keys(BENCHES)) {
  const bench = BENCHES[name];
  if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
  await bench({ durationSec, rounds });
}
