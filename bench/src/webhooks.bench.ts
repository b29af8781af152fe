import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readStackFile } from '@feedback/dev-stack';
import { SurveyAnswered } from '@feedback/proto/feedback/survey/v1/survey';
import { Kafka, logLevel, type Producer } from 'kafkajs';

/** Events per throughput run, of the subject and of the baseline. */
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2_000);
/** Seconds of the open-loop latency run at half the measured rate. */
const LATENCY_SEC = Number(process.env.BENCH_WEBHOOK_LATENCY_SEC ?? 10);
/** The baseline's requests in flight: the service's default WEBHOOKS_CONCURRENCY. */
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 16);
/** The survey service's topic (SURVEY_ANSWERED_TOPIC): the bench publishes what an answer publishes. */
const TOPIC = process.env.BENCH_SURVEY_ANSWERED_TOPIC ?? 'survey.answered';
const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.survey.v1.SurveyAnswered';

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

/**
 * Webhook deliveries through the running stack, as a CRM receives them: an account's endpoint
 * subscribed to survey.answered, on a receiver in this process (127.0.0.1, allowed by the local
 * stack), and `survey.answered` events published to Kafka as the survey service publishes them.
 * (a) deliveries per second: EVENTS events at once, until the receiver has every webhook id;
 *     baseline measured in the same run: a bare Node loop making the same signed POSTs (HMAC-SHA256
 *     of the Standard Webhooks content, the same bodies) to the same receiver, CONCURRENCY at a time;
 * (b) latency from the publish (the answer) to the receiver, p50/p99, in an open loop at half the
 *     measured rate for LATENCY_SEC seconds; events not received 30 s after the end are errors.
 */
export async function webhooksBench() {
  const stack = readStackFile();
  const { base_url: baseUrl, admin_token: adminToken } = stack;
  if (!baseUrl || !adminToken) throw new Error('the stack file has no base_url/admin_token: is the gateway up?');
  const receiver = await startReceiver();
  const kafka = new Kafka({ clientId: 'bench-webhooks', brokers: stack.kafka_brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  try {
    const { accountId } = await newEndpoint(baseUrl, adminToken, `${receiver.origin}/hook`);
    // Warm-up, not measured: the consumer's first fetch, the sender's first connections.
    await receiver.until(await publish(producer, accountId, 50), 60_000);

    const baseline = await bareLoop(receiver, `${receiver.origin}/bare`);
    const started = performance.now();
    const ids = await publish(producer, accountId, EVENTS);
    const received = await receiver.until(ids, 120_000);
    const seconds = (performance.now() - started) / 1000;
    const subjectRps = received / seconds;

    const rate = Math.max(1, Math.floor(subjectRps / 2));
    const latency = await openLoop(producer, receiver, accountId, rate);
    const result = {
      name: 'webhooks',
      deliveries: {
        events: EVENTS,
        received,
        seconds: Number(seconds.toFixed(2)),
        per_sec: Math.round(subjectRps),
      },
      baseline: {
        label: `a bare Node loop making the same signed POSTs, ${CONCURRENCY} in flight`,
        seconds: Number(baseline.seconds.toFixed(2)),
        per_sec: Math.round(baseline.rps),
      },
      ratio: Number((subjectRps / baseline.rps).toFixed(3)),
      goal_ratio: 0.5,
      latency_ms: {
        label: `from the publish of survey.answered to the receiver, ${rate}/s for ${LATENCY_SEC} s`,
        p50: Math.round(latency.p50),
        p99: Math.round(latency.p99),
        samples: latency.samples,
        errors: latency.errors,
        goal_p99: 1_000,
      },
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    await producer.disconnect();
    await receiver.close();
  }
}

/**
 * A receiver answering 204 to every POST, noting when each event first arrived, by its body's
 * data.response_id (the service's webhook ids are its own, one per delivery).
 */
async function startReceiver() {
  const arrived = new Map<string, number>();
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let id = '';
      try {
        id = String((JSON.parse(Buffer.concat(chunks).toString()) as { data?: { response_id?: string } }).data?.response_id ?? '');
      } catch {
        // not an event of this bench
      }
      if (id && !arrived.has(id)) arrived.set(id, performance.now());
      res.writeHead(204).end();
      for (const w of waiters) w();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    arrived,
    /** Resolves with how many of `ids` (response ids) arrived, once all did; throws after `timeoutMs` without progress. */
    async until(ids: string[], timeoutMs: number): Promise<number> {
      let last = -1;
      let since = Date.now();
      for (;;) {
        const n = ids.reduce((k, id) => k + (arrived.has(id) ? 1 : 0), 0);
        if (n === ids.length) return n;
        if (n !== last) [last, since] = [n, Date.now()];
        if (Date.now() - since > timeoutMs)
          throw new Error(`the receiver has ${n} of ${ids.length} webhook ids, none more for ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, 200);
          function done() {
            clearTimeout(t);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function newEndpoint(baseUrl: string, adminToken: string, url: string): Promise<{ accountId: string }> {
  const call = async (path: string, auth: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`POST ${path} → ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const account = await call('/admin/v1/accounts', `Bearer ${adminToken}`, { name: `bench-webhooks-${randomUUID().slice(0, 8)}` });
  const token = await call(`/admin/v1/accounts/${account.id}/tokens`, `Bearer ${adminToken}`, { kind: 'api', name: 'bench' });
  await call('/v1/webhook_endpoints', `Token token=${token.token}`, { url, events: ['survey.answered'], description: 'bench' });
  return { accountId: account.id! };
}

/** A survey.answered event of the account, as the survey service encodes it (event id `survey.answered:<response id>`). */
function answered(accountId: string): { id: string; eventId: string; value: Buffer } {
  const id = randomUUID();
  const value = SurveyAnswered.encode({
    response: {
      id,
      accountId,
      flowId: randomUUID(),
      channelId: randomUUID(),
      nodeId: randomUUID(),
      customerId: randomUUID(),
      linkId: randomUUID(),
      answers: [{ questionKey: 'nps', optionKeys: [], number: 9 }],
      builtInResponses: { customerDetailInfo1: 'Gold' },
      answeredAt: new Date().toISOString(),
    },
  }).finish();
  return { id, eventId: `survey.answered:${id}`, value: Buffer.from(value) };
}

/** Publishes `count` events in requests of 500; answers their response ids. */
async function publish(producer: Producer, accountId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < count; from += 500) {
    const events = Array.from({ length: Math.min(500, count - from) }, () => answered(accountId));
    await producer.send({
      topic: TOPIC,
      messages: events.map((e) => ({
        key: randomUUID(),
        value: e.value,
        headers: { 'event-id': e.eventId, 'content-type': CONTENT_TYPE },
      })),
    });
    ids.push(...events.map((e) => e.id));
  }
  return ids;
}

/** The bare loop: EVENTS signed POSTs of bodies like the service's, CONCURRENCY at a time. */
async function bareLoop(receiver: Awaited<ReturnType<typeof startReceiver>>, url: string) {
  const secret = randomBytes(24);
  const ids = Array.from({ length: EVENTS }, () => randomUUID());
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const webhookId = `msg_${id.replaceAll('-', '')}`;
      const body = JSON.stringify({
        type: 'survey.answered',
        timestamp: new Date().toISOString(),
        data: { response_id: id, answers: [{ question_key: 'nps', number: 9 }], built_in_responses: { customerDetailInfo1: 'Gold' } },
      });
      const ts = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', secret).update(`${webhookId}.${ts}.${body}`).digest('base64');
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': webhookId,
          'webhook-timestamp': String(ts),
          'webhook-signature': `v1,${signature}`,
        },
        body,
        redirect: 'manual',
      });
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`bare POST → ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  await receiver.until(ids, 10_000);
  return { seconds, rps: ids.length / seconds };
}

/** Publishes `rate` events a second for LATENCY_SEC seconds (every 20 ms, those due), then waits for them. */
async function openLoop(producer: Producer, receiver: Awaited<ReturnType<typeof startReceiver>>, accountId: string, rate: number) {
  const sentAt = new Map<string, number>();
  const started = performance.now();
  let issued = 0;
  const total = rate * LATENCY_SEC;
  while (issued < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    if (due > issued) {
      const at = performance.now();
      for (const id of await publish(producer, accountId, due - issued)) sentAt.set(id, at);
      issued = due;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  let errors = 0;
  try {
    await receiver.until([...sentAt.keys()], 30_000);
  } catch {
    errors = [...sentAt.keys()].filter((id) => !receiver.arrived.has(id)).length;
  }
  const latencies = [...sentAt].flatMap(([id, at]) => (receiver.arrived.has(id) ? [receiver.arrived.get(id)! - at] : []));
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), samples: latencies.length, errors };
}
