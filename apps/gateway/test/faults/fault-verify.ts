import { createHash } from 'node:crypto';
import type { StackFile } from '@feedback/dev-stack';
import { sleep } from './fault-kit.js';
import { Admin, type Load, type Tenant } from './fault-load.js';

/** Runs `fn` over `items`, `width` at a time. */
async function each<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

/**
 * What the stack acknowledged and no longer has, once it recovered: short links that do not
 * redirect to their URL, clicks not counted or counted twice, files not whole, SMS not handed to
 * the provider exactly once. `clicksMayBeLost`: the gateway itself was killed, and with it the
 * clicks it had not sent yet (at most its last 250 ms, docs/reliability.md); none may count twice.
 */
export async function lostData(stack: StackFile, t: Tenant, load: Load, opts: { clicksMayBeLost?: boolean } = {}) {
  const lost: string[] = [];
  const notes: Record<string, number> = {};
  const admin = new Admin(stack);

  // Every acknowledged short link redirects to its URL (HEAD: a preview, not a click).
  await each([...load.links], 8, async ([code, url]) => {
    const res = await fetch(`${stack.shortener_url}/${code}`, { method: 'HEAD', redirect: 'manual' });
    if (res.status !== 302 || res.headers.get('location') !== url) lost.push(`link ${code}: ${res.status} ${res.headers.get('location')}`);
  });
  notes.links = load.links.size;

  // Each served redirect counted once: wait (bounded) for the counts to reach the taps.
  const clicks = new Map<string, number>();
  const pending = new Set(load.taps.keys());
  for (
    const deadline = Date.now() + (opts.clicksMayBeLost ? 20_000 : 90_000);
    pending.size > 0 && Date.now() < deadline;
    await sleep(500)
  ) {
    await each([...pending], 8, async (code) => {
      const n = Number((await admin.call('GET', `/links/${code}`)).clicks);
      clicks.set(code, n);
      if (n >= load.taps.get(code)!) pending.delete(code);
    });
  }
  let missing = 0;
  for (const [code, taps] of load.taps) {
    const n = clicks.get(code) ?? 0;
    if (n > taps) lost.push(`link ${code}: ${n} clicks counted for ${taps} redirects`);
    else if (n < taps && !opts.clicksMayBeLost) lost.push(`link ${code}: ${n} clicks counted for ${taps} redirects`);
    missing += taps - Math.min(n, taps);
  }
  notes.redirects = [...load.taps.values()].reduce((a, b) => a + b, 0);
  notes.clicksNotCounted = missing;

  // Files: every acknowledged upload whole; any other the directory lists, whole too.
  const listed = await fetch(`${stack.base_url}/v2/file_service/directory/${t.directoryId}/files`, {
    headers: { authorization: `Bearer ${t.apiToken}` },
  });
  const entries = ((await listed.json()) as { data: { filename: string; url: string }[] }).data;
  const urls = new Map<string, string>();
  for (const [name, u] of load.uploads) if (u.url) urls.set(name, u.url);
  for (const e of entries) if (load.uploads.has(e.filename)) urls.set(e.filename, e.url);
  for (const [name, u] of load.uploads)
    if (u.url && !entries.some((e) => e.filename === name)) lost.push(`file ${name}: acknowledged, not listed`);
  await each([...urls], 4, async ([name, url]) => {
    const res = await fetch(url);
    const body = new Uint8Array(await res.arrayBuffer());
    const hash = createHash('sha256').update(body).digest('hex');
    if (res.status !== 200 || hash !== load.uploads.get(name)!.sha)
      lost.push(`file ${name}: ${res.status}, ${body.length} bytes, not the bytes sent`);
  });
  notes.filesAcknowledged = [...load.uploads.values()].filter((u) => u.url).length;
  notes.filesListed = entries.length;

  // SMS: each phone of an acknowledged sharing handed to the provider exactly once, the others at most once.
  // The outbox shows phones as E.164 digits without the plus.
  const digits = (p: string) => p.replace(/\D/g, '');
  const acked = new Set(load.sharings.filter((s) => s.acked).flatMap((s) => s.phones.map(digits)));
  const tried = new Set(load.sharings.flatMap((s) => s.phones.map(digits)));
  let sent = new Map<string, number>();
  for (const deadline = Date.now() + 60_000; ; await sleep(500)) {
    sent = await outboxCounts(admin, t.accountId);
    if ([...acked].every((p) => sent.has(p)) || Date.now() > deadline) break;
  }
  // A sharing whose create answered 503 while Kafka was away may still be dispatched; its retry
  // with the same Idempotency-Key is the same sharing, so each phone still gets one SMS.
  for (const p of acked) {
    const n = sent.get(p) ?? 0;
    if (n !== 1) lost.push(`sms to ${p}: handed to the provider ${n} times`);
  }
  for (const [p, n] of sent) {
    if (!tried.has(p)) lost.push(`sms to ${p}: never asked for`);
    else if (n > 1 && !acked.has(p)) lost.push(`sms to ${p}: handed to the provider ${n} times`);
  }
  notes.smsAcknowledged = acked.size;
  notes.smsSent = [...sent.values()].reduce((a, b) => a + b, 0);
  notes.smsSharingsRetriedAfter5xx = load.sharings.filter((sh) => sh.retriedAfter5xx).length;
  return { lost, notes };
}

/** Messages the outbox provider was handed per phone (admin GET .../sms_messages, every page). */
export async function outboxCounts(admin: Admin, accountId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let token: string | null = ''; token !== null;) {
    const page = (await admin.call('GET', `/accounts/${accountId}/sms_messages?page_size=500${token ? `&page_token=${token}` : ''}`)) as {
      data: { phone: string }[];
      next_page_token: string | null;
    };
    for (const m of page.data) counts.set(m.phone.replace(/\D/g, ''), (counts.get(m.phone.replace(/\D/g, '')) ?? 0) + 1);
    token = page.next_page_token;
  }
  return counts;
}
