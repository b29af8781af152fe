import { readStackFile } from '@feedback/dev-stack';
import { startBareServer } from './bare-server.js';
import { compare } from './compare.js';
import { runLoad } from './load.js';
import { cpuPerRequest, formatCpuPerRequest } from './process-stats.js';
import { adminPost } from './stack-api.js';

/** A flow with localized bodies and options, so its view is not trivial (also the soak's). */
export const FLOW_QUESTIONS = [
  { key: 'nps', body: { en: 'How likely are you to recommend us?', tr: 'Bizi tavsiye eder misiniz?' }, style: 'nps' },
  {
    key: 'why',
    body: { en: 'Why?' },
    style: 'multiple_choice',
    options: ['a', 'b', 'c', 'd'].map((k) => ({ key: k, body: { en: `Option ${k}`, tr: `Seçenek ${k}` } })),
  },
  { key: 'comment', body: { en: 'Anything else?' }, style: 'long_text' },
];

/** GET /external/v1/flows/{id} through the gateway vs a bare Node server answering the same JSON. */
export async function flowDetailsBench(opts: { durationSec: number; rounds: number }) {
  const stack = readStackFile();
  const admin = adminPost(stack.base_url!, stack.admin_token!);
  const account = await admin('/accounts', { name: 'bench' });
  const token = (await admin(`/accounts/${account.id}/tokens`, { kind: 'integration', name: 'bench' })).token;
  const flow = await admin(`/accounts/${account.id}/flows`, {
    name: 'Bench flow',
    questions: FLOW_QUESTIONS,
  });
  const url = `${stack.base_url}/external/v1/flows/${flow.id}`;
  const headers = { authorization: `Bearer ${token}` };
  const same = await fetch(url, { headers });
  const body = await same.text();
  const bare = await startBareServer({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body });
  try {
    const comparison = await compare({
      name: 'flow-details',
      baseline: { label: 'bare node http (same JSON)', load: { url: bare.url } },
      subject: { label: 'gateway → gRPC flow → db', load: { url, headers } },
      durationSec: opts.durationSec,
      rounds: opts.rounds,
      connections: 16,
    });
    // Where the time goes: CPU per request of each process on the path, in one more subject run.
    const { perRequest } = await cpuPerRequest(['gateway', 'flow', 'mongo'], () =>
      runLoad({ url, headers, connections: 16, durationSec: opts.durationSec }),
    );
    console.log(`CPU per request: ${formatCpuPerRequest(perRequest)} (mongo = the database server; flow cache hits skip it)`);
    return { ...comparison, cpuPerRequestMs: perRequest };
  } finally {
    bare.stop();
  }
}
