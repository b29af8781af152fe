import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readStackFile } from '@feedback/dev-stack';
import { MongoClient } from 'mongodb';
import { startBareServer } from './bare-server.js';
import { alternate, report } from './compare.js';
import { runLoad } from './load.js';
import { adminPost, benchCampaign } from './stack-api.js';

const RECIPIENTS = 100_000;
/** messaging's chunk size (shared/adapters/mongo/sharing.repository.ts CHUNK). */
const CHUNK = 1_000;
const MESSAGING_DB = process.env.BENCH_MESSAGING_DB ?? 'messaging';
/** The goal: every console page's HTML within this at the 99th percentile, one person asking. */
const P99_GOAL_MS = 100;
/** And at most this much compressed JavaScript per page. */
const JS_GOAL_BYTES = 150 * 1024;
const PASSWORD = 'a long enough secret for the console benchmark';

/** The recipient at `i`'s phone (E.164 digits, as messaging keeps them) and where its SMS stands. */
const phoneAt = (i: number) => `90532${String(i).padStart(7, '0')}`;
// Mostly delivered, 3% failed (the status filter's page reads the failed records by messaging's
// index sharing_status_id, which these records' fields fill as the dispatcher's do), a few sent or
// opted out: settled statuses only, so no sweep of the stack takes these records up.
const statusAt = (i: number) => (i % 100 < 3 ? 'failed' : i % 100 < 5 ? 'sent' : i % 100 < 6 ? 'opted_out' : 'delivered');

/**
 * The console's pages over a campaign with a sharing of 100,000 recipients (docs/api.md
 * "Console"), each asked with a session cookie by one person at a time, alternately with a bare
 * Node server answering a page of the same size: campaigns, the campaign, the sharing's first page,
 * filtered by a status, one phone, responses and uploads; the compressed JavaScript each page loads.
 * The sharing is written straight into messaging's database in its own shape (`sharings`, 100
 * chunk documents of `sharing_recipients`, one `sms_messages` record a recipient, its
 * `sharing_tallies` and this quarter hour's `campaign_tallies` counters), marked completed so that
 * no scheduler takes it up, and removed afterwards.
 */
export async function consolePagesBench(opts: { durationSec: number; rounds: number }) {
  const stack = readStackFile();
  const base = stack.base_url!;
  const admin = adminPost(base, stack.admin_token!);
  const account = await admin('/accounts', { name: 'bench console pages' });
  const campaign = await benchCampaign(admin, account.id!);
  const email = `bench-console-${randomUUID().slice(0, 8)}@example.com`;
  await admin(`/accounts/${account.id}/users`, { email, name: 'Bench owner', role: 'owner', password: PASSWORD });

  const mongo = new MongoClient(stack.mongo_url, { maxPoolSize: 16 });
  await mongo.connect();
  const db = mongo.db(MESSAGING_DB);
  const sharingId = randomUUID();
  const accountId = account.id!;
  const campaignId = campaign.id!;
  try {
    const now = new Date();
    const started = performance.now();
    const chunks = Array.from({ length: RECIPIENTS / CHUNK }, (_, c) => ({
      _id: `${sharingId}.${c}`,
      sharing_id: sharingId,
      recipients: Array.from({ length: CHUNK }, (_, k) => {
        const phone = phoneAt(c * CHUNK + k);
        return { phone, input: `+${phone}`, attributes: { name: `Customer ${c * CHUNK + k}` }, built_in_responses: {} };
      }),
    }));
    for (let i = 0; i < chunks.length; i += 10) await db.collection('sharing_recipients').insertMany(chunks.slice(i, i + 10) as never[]);
    for (let i = 0; i < RECIPIENTS; i += 5_000) {
      const records = Array.from({ length: Math.min(5_000, RECIPIENTS - i) }, (_, k) => {
        const phone = phoneAt(i + k);
        const status = statusAt(i + k);
        return {
          _id: `${sharingId}.${phone}`,
          account_id: accountId,
          sharing_id: sharingId,
          campaign_id: campaignId,
          phone,
          text: `Hi https://s.example/${(i + k).toString(36)}`,
          provider: 'bench',
          status,
          attempts: 1,
          provider_message_id: status === 'opted_out' ? null : `bench-${i + k}`,
          error: status === 'failed' ? 'bench: absent subscriber' : null,
          created_at: now,
          updated_at: now,
          encoding: 'gsm7',
          segments: 1,
        };
      });
      await db.collection('sms_messages').insertMany(records as never[], { ordered: false });
    }
    const count = (s: string) => Array.from({ length: RECIPIENTS }, (_, i) => statusAt(i)).filter((x) => x === s).length;
    const [failed, sent, optedOut] = [count('failed'), count('sent'), count('opted_out')];
    const counters = {
      account_id: accountId,
      campaign_id: campaignId,
      recipients: RECIPIENTS,
      sent: RECIPIENTS - optedOut,
      delivered: RECIPIENTS - failed - sent - optedOut,
      failed,
      opted_out: optedOut,
      clicked: 0,
      answered: 0,
      segments: RECIPIENTS - optedOut,
      applied: [],
    };
    await db.collection('sharing_tallies').insertOne({ _id: sharingId, ...counters } as never);
    const quarter = new Date(Math.floor(now.getTime() / 900_000) * 900_000);
    await db.collection('campaign_tallies').insertOne({
      _id: `${campaignId}|${quarter.toISOString()}`,
      start: quarter,
      ...counters,
      promoters: 0,
      passives: 0,
      detractors: 0,
    } as never);
    // The sharing last: readable only once its recipients are (as messaging writes it), completed and settled.
    await db.collection('sharings').insertOne({
      _id: sharingId,
      account_id: accountId,
      campaign_id: campaignId,
      created_at: now,
      accepted: RECIPIENTS,
      duplicates: 0,
      rejected: [],
      scheduled_for: null,
      cancelled_at: null,
      completed_at: now,
      settled_firsts: RECIPIENTS,
      progressed_at: now,
    } as never);
    console.log(
      `wrote a sharing of ${RECIPIENTS} recipients (${chunks.length} chunks, ${RECIPIENTS} records) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const signIn = await fetch(`${base}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(base).origin },
      body: new URLSearchParams({ email, password: PASSWORD }).toString(),
    });
    const cookie = /fs_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')?.[0];
    if (signIn.status !== 303 || !cookie) throw new Error(`console sign-in: ${signIn.status}`);
    const headers = { cookie };

    const pages: [string, string][] = [
      ['campaigns', '/console/campaigns'],
      ['campaign', `/console/campaigns/${campaignId}`],
      ['sharing', `/console/sharings/${sharingId}`],
      ['sharing ?status=failed', `/console/sharings/${sharingId}?status=failed`],
      ['sharing ?phone=', `/console/sharings/${sharingId}?phone=${encodeURIComponent(`+${phoneAt(73_421)}`)}`],
      ['responses', '/console/responses'],
      ['uploads', '/console/uploads'],
    ];
    const results = [];
    mkdirSync(join(process.cwd(), '..', '.local', 'bench'), { recursive: true });
    for (const [name, path] of pages) {
      const url = base + path;
      const res = await fetch(url, { headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body.slice(0, 300)}`);
      // Each page as measured, to look at (.local/bench/).
      writeFileSync(join(process.cwd(), '..', '.local', 'bench', `console-${name.replace(/[^a-z]+/g, '-')}.html`), body);
      const jsBytes = await javascriptOf(base, body, headers);
      const bare = await startBareServer({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body });
      try {
        const { baseline, subject, ratio } = await alternate(
          `console-${name}`,
          { label: `bare node http (${body.length} B)`, run: (sec) => runLoad({ url: bare.url, connections: 1, durationSec: sec }) },
          { label: `GET ${name}`, run: (sec) => runLoad({ url, headers, connections: 1, durationSec: sec }) },
          { rounds: opts.rounds, durationSec: opts.durationSec, warmupSec: 1 },
        );
        report(`console-page-${name.replace(/[^a-z]+/g, '-')}`, [baseline, subject], ratio, {
          recipients: RECIPIENTS,
          htmlBytes: body.length,
          jsBytes,
          rounds: opts.rounds,
          durationSec: opts.durationSec,
        });
        results.push({ name, htmlBytes: body.length, jsBytes, baseline, subject, ratio });
      } finally {
        bare.stop();
      }
    }
    console.log(
      `\n${'page'.padEnd(24)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'bare p99'.padStart(9)} ${'errors'.padStart(7)} ${'HTML B'.padStart(8)} ${'JS gz B'.padStart(8)}`,
    );
    for (const r of results) {
      const miss = r.subject.p99 > P99_GOAL_MS || r.jsBytes > JS_GOAL_BYTES ? '  MISSES the goal' : '';
      console.log(
        `${r.name.padEnd(24)} ${r.subject.p50.toFixed(2).padStart(8)} ${r.subject.p99.toFixed(2).padStart(8)} ${r.baseline.p99.toFixed(2).padStart(9)} ${String(r.subject.errors).padStart(7)} ${String(r.htmlBytes).padStart(8)} ${String(r.jsBytes).padStart(8)}${miss}`,
      );
    }
    const worst = results.reduce((a, b) => (b.subject.p99 > a.subject.p99 ? b : a));
    return { subject: worst.subject, baseline: worst.baseline, ratio: worst.ratio };
  } finally {
    await Promise.all([
      db.collection('sharings').deleteOne({ _id: sharingId } as never),
      db.collection('sharing_tallies').deleteOne({ _id: sharingId } as never),
      db.collection('campaign_tallies').deleteMany({ campaign_id: campaignId }),
      // Records and chunks by their ids' range (`<sharing>.…`, the _id index).
      db.collection('sms_messages').deleteMany({ _id: { $gte: `${sharingId}.`, $lt: `${sharingId}/` } } as never),
      db.collection('sharing_recipients').deleteMany({ _id: { $gte: `${sharingId}.`, $lt: `${sharingId}/` } } as never),
    ]).catch(() => undefined);
    await mongo.close();
  }
}

/** The gzip-compressed bytes of the scripts a page loads (`<script src>`), 0 for none. */
async function javascriptOf(base: string, html: string, headers: Record<string, string>): Promise<number> {
  let bytes = 0;
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) {
    const res = await fetch(new URL(m[1]!.replace(/&amp;/g, '&'), base), { headers });
    bytes += gzipSync(Buffer.from(await res.arrayBuffer())).length;
  }
  return bytes;
}
