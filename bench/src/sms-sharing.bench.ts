import { randomBytes } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient, type Collection, type Document } from 'mongodb';

/** A document of the baseline's collections: string ids, any fields. */
type Row = Document & { _id: string };
import { cpuSeconds, pidOf } from './process-stats.js';

const PHONES = Number(process.env.BENCH_SMS_PHONES ?? 5_000);
/** Accept-latency samples (each a sharing of PHONES recipients that the stack then dispatches). */
const REQUESTS = Number(process.env.BENCH_SMS_REQUESTS ?? 8);
/** The messaging service's database in the running stack (read only: the outbox count). */
const MESSAGING_DB = process.env.BENCH_MESSAGING_DB ?? 'messaging';
/** Messaging's sms.status topic: each message's "sent" is published once the provider took it. */
const STATUS_TOPIC = process.env.BENCH_SMS_STATUS_TOPIC ?? 'sms.status';
const PROCESSES = ['gateway', 'messaging', 'survey', 'shortener', 'mongo', 'kafka'];
/** Phones on the account's suppression list (none of them shared): every sharing and dispatch looks its phones up there. */
const OPT_OUTS = Number(process.env.BENCH_SMS_OPT_OUTS ?? 100_000);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const uniq = () => randomBytes(4).toString('hex');
/** Distinct valid Turkish mobiles per run and request, so every recipient is really dispatched. */
const phoneList = (run: number, request: number) =>
  Array.from({ length: PHONES }, (_, i) => `+90 53${run % 10} ${String(request * PHONES + i).padStart(7, '0')}`);

/**
 * SMS sharing through the running stack, as an integrator sends it:
 * (a) `POST /v1/sms_campaigns/{id}/sms_sharings` with PHONES phones: accepted latency p50/p99
 *     (the gateway's checks, messaging's normalization, the sharing's bulk insert and the
 *     publishing of one sms.dispatch event per recipient all happen before the answer);
 * (b) recipients per second from that request until the provider (the outbox) holds all of
 *     them, against a baseline measured in the same run: the same number of messages through a
 *     bare kafkajs produce and consume, with the database writes the system makes per recipient
 *     made in bulk per consumed batch (bareBaseline). CPU per recipient per process.
 * Three sharings of 2,000 phones warm the stack up first, unmeasured. A fresh account per run keeps the
 * four-tier limit out of the way. The run ends once every
 * sample's recipients are dispatched too, so no backlog is left behind.
 */
export async function smsSharingBench() {
  const stack = readStackFile();
  const { base_url: baseUrl, admin_token: adminToken } = stack;
  if (!baseUrl || !adminToken) throw new Error('the stack file has no base_url/admin_token: is the gateway up?');
  const mongo = new MongoClient(stack.mongo_url, { maxPoolSize: 8 });
  await mongo.connect();
  try {
    const baseline = await bareBaseline(stack.kafka_brokers, mongo);
    const setup = await newCampaign(baseUrl, adminToken);
    const watcher = await watchSent(stack.kafka_brokers);
    const run = Number.parseInt(uniq(), 16);
    const outbox = mongo.db(MESSAGING_DB).collection('sms_outbox');
    // Warm-up, not measured: the first sharings after a restart pay for compiling their code paths
    // (a 5,000-phone accept takes 300-390 ms for the first five, then 150-240), which a running
    // service paid long ago.
    const warmUp: { id: string; accepted: number }[] = [];
    for (let i = 0; i < 3; i++) warmUp.push(await share(baseUrl, setup, phoneList(run, 2 * REQUESTS + i).slice(0, 2_000)));
    await watcher.until(warmUp);

    // (b) first, on an idle dispatcher: one request, then until the provider holds every recipient.
    const pids = PROCESSES.map((n) => [n, pidOf(n)] as const).filter((p): p is readonly [string, number] => p[1] !== undefined);
    const cpuBefore = pids.map(([, pid]) => cpuSeconds(pid));
    const started = performance.now();
    const first = await share(baseUrl, setup, phoneList(run, 0));
    const sent = await watcher.until([first]);
    const seconds = (performance.now() - started) / 1000;
    const cpuPerRecipient = Object.fromEntries(
      pids.map(([name, pid], i) => [name, Number((((cpuSeconds(pid) - cpuBefore[i]!) * 1000) / sent).toFixed(3))]),
    );
    const subjectRps = sent / seconds;

    // (a) more samples of the accept latency, back to back; their recipients are dispatched before the run ends.
    const latencies = [first.ms];
    const samples: { id: string; accepted: number }[] = [];
    let errors = 0;
    for (let i = 1; i < REQUESTS; i++) {
      try {
        const r = await share(baseUrl, setup, phoneList(run, i));
        latencies.push(r.ms);
        samples.push(r);
      } catch (err) {
        errors++;
        console.error((err as Error).message);
      }
    }
    // Leave the stack idle for whoever comes next: wait until the samples are dispatched too.
    const drainStarted = performance.now();
    const drained = await watcher.until(samples);
    const drainRps = drained ? drained / ((performance.now() - drainStarted) / 1000) : 0;

    // (c) the accept latency on an idle dispatcher: one sharing at a time, each dispatched before the next.
    const idleLatencies: number[] = [];
    const idleSharings: { id: string; accepted: number }[] = [];
    for (let i = 0; i < REQUESTS - 1; i++) {
      const r = await share(baseUrl, setup, phoneList(run, REQUESTS + i));
      idleLatencies.push(r.ms);
      idleSharings.push(r);
      await watcher.until([r]);
    }
    await watcher.stop();
    // The provider's own record agrees (one exact count at the end, not a poll that loads the database).
    const all = [...warmUp, first, ...samples, ...idleSharings];
    const inOutbox = await outbox.countDocuments({ sharing_id: { $in: all.map((s) => s.id) } });
    const reported = all.reduce((n, s) => n + s.accepted, 0);
    if (inOutbox !== reported) throw new Error(`the outbox holds ${inOutbox} messages of the sharings, sms.status said ${reported}`);

    const result = {
      name: 'sms-sharing',
      phones: PHONES,
      opt_outs: OPT_OUTS,
      accept_ms: {
        label: 'back to back, while the earlier sharings dispatch (the first one on an idle dispatcher)',
        p50: Math.round(quantile(latencies, 0.5)),
        p99: Math.round(quantile(latencies, 0.99)),
        samples: latencies.map(Math.round),
        errors,
        goal_p50: 250,
      },
      accept_idle_ms: {
        label: 'one at a time, each dispatched before the next',
        p50: Math.round(quantile(idleLatencies, 0.5)),
        p99: Math.round(quantile(idleLatencies, 0.99)),
        samples: idleLatencies.map(Math.round),
        goal_p50: 250,
      },
      dispatch: {
        recipients: sent,
        seconds: Number(seconds.toFixed(1)),
        recipients_per_sec: Math.round(subjectRps),
        backlog_drain_per_sec: Math.round(drainRps),
      },
      baseline: {
        label: 'kafkajs produce+consume, the same 6 writes per recipient in bulk per batch',
        seconds: Number(baseline.seconds.toFixed(2)),
        recipients_per_sec: Math.round(baseline.rps),
      },
      ratio: Number((subjectRps / baseline.rps).toFixed(3)),
      goal_ratio: 0.5,
      cpu_ms_per_recipient: cpuPerRecipient,
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    await mongo.close();
  }
}

/**
 * Follows sms.status (no load on the database, unlike polling the outbox, which the local
 * server answers with a scan): a message's "sent" is published right after the provider took
 * it. `until` waits for every accepted recipient of the sharings; fails after 60 s without progress.
 */
async function watchSent(brokers: string[]) {
  const kafka = new Kafka({ brokers, clientId: 'bench-sms-watch', logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `bench-sms-watch-${uniq()}` });
  const sent = new Map<string, Set<string>>();
  await consumer.connect();
  await consumer.subscribe({ topics: [STATUS_TOPIC], fromBeginning: false });
  const joined = new Promise<void>((r) => consumer.on(consumer.events.GROUP_JOIN, () => r()));
  await consumer.run({
    eachMessage: async ({ message }) => {
      // event-id: sms.status:<sharing id>.<phone>:<status>:<attempt>
      const [, id = '', status] = message.headers?.['event-id']?.toString().split(':') ?? [];
      if (status !== 'sent' && status !== 'delivered') return;
      const sharingId = id.slice(0, id.indexOf('.'));
      if (!sent.has(sharingId)) sent.set(sharingId, new Set());
      sent.get(sharingId)!.add(id);
    },
  });
  await joined;
  await new Promise((r) => setTimeout(r, 2_000)); // the new group's offsets are resolved to the end before any request
  return {
    async until(sharings: { id: string; accepted: number }[]): Promise<number> {
      const want = sharings.reduce((n, s) => n + s.accepted, 0);
      const count = () => sharings.reduce((n, s) => n + (sent.get(s.id)?.size ?? 0), 0);
      let last = 0;
      let lastProgress = performance.now();
      while (count() < want) {
        await new Promise((r) => setTimeout(r, 50));
        if (count() > last) [last, lastProgress] = [count(), performance.now()];
        if (performance.now() - lastProgress > 60_000) throw new Error(`dispatch stalled at ${last}/${want}`);
      }
      return want;
    },
    stop: () => consumer.disconnect(),
  };
}

interface Setup {
  campaignId: string;
  token: string;
}

async function newCampaign(baseUrl: string, adminToken: string): Promise<Setup> {
  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`admin POST ${path} → ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const account = await admin('/accounts', { name: `bench-sms-${uniq()}` });
  const token = await admin(`/accounts/${account.id}/tokens`, { kind: 'api', name: 'bench' });
  // The suppression list through the API, 1,000 phones a call (+90 54x: never among the shared +90 53x).
  for (let from = 0; from < OPT_OUTS; from += 1_000) {
    const phones = Array.from(
      { length: Math.min(1_000, OPT_OUTS - from) },
      (_, i) => `+90 54${(from / 1_000) % 10} ${String(from + i).padStart(7, '0')}`,
    );
    const res = await fetch(`${baseUrl}/v1/sms_opt_outs`, {
      method: 'POST',
      headers: { authorization: `Token token=${token.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone_numbers: phones }),
    });
    if (res.status !== 200) throw new Error(`POST /v1/sms_opt_outs → ${res.status} ${await res.text()}`);
  }
  const node = await admin(`/accounts/${account.id}/nodes`, { name: 'Bench store' });
  const flow = await admin(`/accounts/${account.id}/flows`, {
    name: 'Bench',
    questions: [{ key: 'nps', body: { en: 'Recommend us?' }, style: 'nps' }],
  });
  const campaign = await admin(`/accounts/${account.id}/sms_campaigns`, {
    name: 'Bench SMS',
    node_id: node.id,
    flow_id: flow.id,
    message_template: 'Merhaba {{name}}, görüşünüz: {{link}}',
  });
  return { campaignId: campaign.id!, token: token.token! };
}

async function share(baseUrl: string, setup: Setup, phones: string[]): Promise<{ id: string; accepted: number; ms: number }> {
  const body = JSON.stringify({
    phone_numbers: phones,
    custom_attributes: Object.fromEntries(phones.slice(0, 100).map((p, i) => [p, { name: `Müşteri ${i}` }])),
  });
  // As an integrator should: with an Idempotency-Key, a 503 is asked again (the same sharing, no second SMS).
  const headers = {
    authorization: `Token token=${setup.token}`,
    'content-type': 'application/json',
    'idempotency-key': `bench-${randomBytes(8).toString('hex')}`,
  };
  const t0 = performance.now();
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${baseUrl}/v1/sms_campaigns/${setup.campaignId}/sms_sharings`, { method: 'POST', headers, body });
    const json = (await res.json()) as { id?: string; accepted?: number };
    if (res.status === 200 && json.id) return { id: json.id, accepted: json.accepted ?? phones.length, ms: performance.now() - t0 };
    if ((res.status !== 503 && res.status !== 409) || attempt >= 5)
      throw new Error(`sharing → ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    console.error(`sharing → ${res.status}, asked again with the same Idempotency-Key`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/**
 * PHONES messages produced (batches of 500, like messaging's publisher), consumed, and per
 * consumed batch the database writes the system makes per recipient (counted with the server's
 * opcounters on a 200-phone sharing: 4 inserts and 2 updates each), made directly in bulk: four
 * insertMany (the sharing's recipient, the short link, the message claim, the outbox record) and
 * two bulkWrite (the survey link's upsert, the message's status).
 */
async function bareBaseline(brokers: string[], mongo: MongoClient): Promise<{ seconds: number; rps: number }> {
  const kafka = new Kafka({ brokers, clientId: 'bench-sms-baseline', logLevel: logLevel.NOTHING });
  const topic = `bench.sms.${uniq()}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 6 }], waitForLeaders: true });
  // With the services' write concern (kit-stores connectMongo): the same writes, equally durable.
  const db = mongo.db(`bench_sms_${uniq()}`, { writeConcern: { w: 'majority', journal: true } });
  const [recipients, shortLinks, claims, outbox, surveyLinks] = ['recipients', 'short_links', 'messages', 'outbox', 'survey_links'].map(
    (n) => db.collection<Row>(n),
  ) as [Collection<Row>, Collection<Row>, Collection<Row>, Collection<Row>, Collection<Row>];
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const consumer = kafka.consumer({ groupId: `bench-sms-${uniq()}` });
  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  let written = 0;
  let done!: () => void;
  const allWritten = new Promise<void>((r) => (done = r));
  await consumer.run({
    eachBatch: async ({ batch }) => {
      const now = new Date();
      const phones = batch.messages.map((m) => m.key!.toString());
      if (phones.length === 0) return;
      const texts = batch.messages.map((m) => m.value!.toString());
      const rows = (f: (phone: string, i: number) => Record<string, unknown>) => phones.map((phone, i) => ({ _id: phone, ...f(phone, i) }));
      await recipients.insertMany(
        rows((phone) => ({ phone, attributes: {}, created_at: now })),
        { ordered: false },
      );
      await surveyLinks.bulkWrite(
        phones.map((phone) => ({
          updateOne: {
            filter: { _id: phone },
            update: { $set: { activated_at: now, answered_at: null }, $inc: { activation: 1 } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
      await shortLinks.insertMany(
        rows((phone) => ({ url: `https://api.example/s/${phone}`, created_at: now })),
        { ordered: false },
      );
      await claims.insertMany(
        rows((phone, i) => ({ phone, text: texts[i], status: 'sending', attempts: 1, created_at: now })),
        { ordered: false },
      );
      await outbox.insertMany(
        rows((phone, i) => ({ phone, text: texts[i], created_at: now })),
        { ordered: false },
      );
      await claims.bulkWrite(
        phones.map((phone) => ({
          updateOne: { filter: { _id: phone, status: 'sending' }, update: { $set: { status: 'sent', updated_at: now } } },
        })),
        { ordered: false },
      );
      written += phones.length;
      if (written >= PHONES) done();
    },
  });
  await new Promise((r) => setTimeout(r, 3_000)); // the group's first join, outside the timing
  const t0 = performance.now();
  for (let i = 0; i < PHONES; i += 500) {
    const messages = Array.from({ length: Math.min(500, PHONES - i) }, (_, j) => ({
      key: `90532${String(i + j).padStart(7, '0')}`,
      value: `Merhaba, görüşünüz: https://s.example/${i + j}`,
    }));
    await producer.send({ topic, acks: -1, messages });
  }
  await allWritten;
  const seconds = (performance.now() - t0) / 1000;
  await consumer.disconnect();
  await producer.disconnect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
  await db.dropDatabase();
  return { seconds, rps: PHONES / seconds };
}
