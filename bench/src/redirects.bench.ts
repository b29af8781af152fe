import { readStackFile } from '@feedback/dev-stack';
import autocannon from 'autocannon';
import { startBareServer } from './bare-server.js';
import { compare } from './compare.js';
import { runLoad } from './load.js';
import { cpuPerRequest, formatCpuPerRequest } from './process-stats.js';
import type { BenchOptions } from './repeat.js';

/**
 * A phone's browser: the link listener counts only a person's first tap of a code in a minute
 * (links/click-filter.ts), so the load is one person tapping again and again (the user-agent
 * check and the in-process memory of recent clicks on every request, a click a minute), and
 * the count check below is as many people as taps.
 */
const PHONE_BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** GET {shortener_url}/{code} through the link listener vs a bare Node server answering the same 302. */
export async function redirectsBench(opts: BenchOptions) {
  const connections = opts.connections ?? 16;
  const stack = readStackFile();
  const created = await fetch(`${stack.shortener_url}/shorten`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'https://survey.example.com/s/7Hq2pX?lang=tr&utm_source=sms' }),
  });
  if (!created.ok) throw new Error(`POST /shorten: ${created.status} ${await created.text()}`);
  const link = (await created.json()) as { id: string; shortUrl: string };
  const url = `${stack.shortener_url}/${link.id}`;
  const first = await fetch(url, { redirect: 'manual' });
  const location = first.headers.get('location') ?? '';
  const bare = await startBareServer({ status: 302, headers: { location, 'cache-control': 'private, no-store' }, body: '' });
  try {
    const result = await compare({
      name: 'redirects',
      baseline: {
        label: 'bare node http (same 302)',
        load: { url: bare.url, expectStatus: 302, headers: { 'user-agent': PHONE_BROWSER } },
      },
      subject: { label: 'link listener GET /{code}', load: { url, expectStatus: 302, headers: { 'user-agent': PHONE_BROWSER } } },
      durationSec: opts.durationSec,
      rounds: opts.rounds,
      connections,
    });
    console.log(
      `p99 under 10 ms: ${result.subject.p99 < 10 ? 'yes' : 'NO'}; at least 0.6 of the bare rate: ${result.ratio >= 0.6 ? 'yes' : 'NO'}`,
    );
    // Where the time goes: CPU per request of each process on the path, in one more subject run.
    // Kafka too: the clicks and excluded redirects the gateway publishes cost the broker CPU on the same cores.
    const { perRequest } = await cpuPerRequest(['gateway', 'shortener', 'mongo', 'kafka'], () =>
      runLoad({ url, expectStatus: 302, connections, durationSec: opts.durationSec, headers: { 'user-agent': PHONE_BROWSER } }),
    );
    console.log(`CPU per request: ${formatCpuPerRequest(perRequest)} (shortener/mongo/kafka: cache misses and clicks)`);
    await verifyClicks(stack, 20_000);
    return { ...result, cpuPerRequestMs: perRequest };
  } finally {
    bare.stop();
  }
}

/** A fresh link tapped exactly `n` times under load, by `n` people: its count must reach `n`, no more. */
async function verifyClicks(stack: ReturnType<typeof readStackFile>, n: number) {
  const created = await fetch(`${stack.shortener_url}/shorten`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'https://survey.example.com/s/count-check' }),
  });
  const { id } = (await created.json()) as { id: string };
  let people = 0;
  const result = await autocannon({
    url: `${stack.shortener_url}/${id}`,
    connections: 16,
    amount: n,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'user-agent': `${PHONE_BROWSER} person/${++people}` } }) }],
  });
  const redirected = result.statusCodeStats?.['302']?.count ?? 0;
  const started = Date.now();
  const read = async () => {
    const res = await fetch(`${stack.base_url}/admin/v1/links/${id}`, { headers: { authorization: `Bearer ${stack.admin_token}` } });
    return ((await res.json()) as { clicks: number }).clicks;
  };
  let counted = await read();
  while (counted < redirected && Date.now() - started < 90_000) {
    await new Promise((r) => setTimeout(r, 250));
    counted = await read();
  }
  await new Promise((r) => setTimeout(r, 2_000));
  counted = await read();
  console.log(
    `click counting: ${redirected} redirects of a fresh link → ${counted} clicks counted (${counted === redirected ? 'exact' : 'MISMATCH'}), ` +
      `all counted ${((Date.now() - started - 2_000) / 1000).toFixed(1)} s after the last redirect`,
  );
}
