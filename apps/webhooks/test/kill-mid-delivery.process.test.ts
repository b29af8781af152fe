import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, privateErasureAndRetention, startAppProcess, type AppProcess } from '@feedback/dev-stack';
import { createGrpcClient } from '@feedback/kit-grpc';
import { createProducer, ensureTopics, type Producer } from '@feedback/kit-kafka';
import { SurveyAnswered } from '@feedback/proto/feedback/survey/v1/survey';
import { WebhookServiceClient } from '@feedback/proto/feedback/webhooks/v1/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { kafka, logger, stack, uniq, waitFor } from './stack.js';

// kill -9 of the webhooks service while its attempts hang at the receiver: a second process takes
// the claims over once their lease ends, and the receiver gets every event at least once, signed.
describe('webhooks service killed mid-delivery', () => {
  const db = uniq('webhooks_kill').replace('-', '_');
  const topics = {
    SURVEY_ANSWERED_TOPIC: uniq('survey.answered'),
    SMS_STATUS_TOPIC: uniq('sms.status'),
    FILE_EXPIRED_TOPIC: uniq('file.expired'),
  };
  const group = uniq('webhooks-kill');
  const key = randomBytes(32).toString('base64');
  const personalDataKey = randomBytes(32).toString('base64');
  const processes: AppProcess[] = [];
  let producer: Producer | undefined;

  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const hanging: ServerResponse[] = [];
  let answering = false;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (answering) res.writeHead(204).end();
      else hanging.push(res); // mid-delivery: no answer until the process is gone
    });
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await producer?.disconnect();
    hanging.forEach((r) => r.destroy());
    receiver.close();
    const { MongoClient } = await import('mongodb');
    const mongo = new MongoClient(stack.mongo_url);
    await mongo
      .db(db)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
  });

  const start = async () => {
    const port = await freePort();
    const proc = startAppProcess('webhooks', {
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(await freePort()),
      MONGO_URL: stack.mongo_url,
      MONGO_DB: db,
      KAFKA_BROKERS: stack.kafka_brokers.join(','),
      ...topics,
      ...privateErasureAndRetention().env,
      WEBHOOKS_EVENTS_GROUP: group,
      WEBHOOKS_SECRET_KEY: key,
      // Required since webhooks keys the subject hashes of its deliveries with it.
      PERSONAL_DATA_KEY: personalDataKey,
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOWED_CIDRS: '127.0.0.0/8',
      WEBHOOKS_RETRY_SCHEDULE: '1s',
      WEBHOOKS_TIMEOUT_MS: '20000',
      WEBHOOKS_LEASE_MS: '25000',
      WEBHOOKS_CONCURRENCY: '4',
      LOG_LEVEL: 'info',
    });
    processes.push(proc);
    await proc.waitUntil('the consumer running', () => proc.lines().some((l) => l.msg === 'consumer running'), 90_000);
    return { proc, address: `127.0.0.1:${port}` };
  };

  it('every event reaches the receiver at least once, each verified, after a kill -9 and a restart', async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    await ensureTopics(
      kafka,
      Object.values(topics).map((topic) => ({ topic, numPartitions: 3 })),
    );
    const first = await start();
    const client = createGrpcClient(WebhookServiceClient, first.address, { deadlineMs: 5_000 });
    const account = uniq('acc');
    const { secret } = await client.createEndpoint({
      accountId: account,
      url: `${origin}/hook`,
      events: ['survey.answered'],
      description: '',
    });
    client.close();

    producer = createProducer(kafka, { logger });
    await producer.connect();
    const responseIds = Array.from({ length: 10 }, (_, i) => `r${i}-${uniq('x')}`);
    await producer.publish(
      topics.SURVEY_ANSWERED_TOPIC,
      responseIds.map((id) => ({
        key: id,
        eventId: `survey.answered:${id}`,
        value: Buffer.from(
          SurveyAnswered.encode({
            response: {
              id,
              accountId: account,
              flowId: 'f',
              channelId: 'c',
              nodeId: 'n',
              customerId: id,
              linkId: 'l',
              answers: [],
              builtInResponses: {},
              answeredAt: new Date().toISOString(),
            },
          }).finish(),
        ),
      })),
    );
    // Four attempts in flight (its concurrency), none answered: then the process dies.
    await waitFor('attempts in flight', () => hanging.length >= 4, 60_000);
    await first.proc.kill('SIGKILL');
    hanging.splice(0).forEach((r) => r.destroy());
    answering = true;
    await start();

    const seen = () => new Set(received.map((r) => (JSON.parse(r.body) as { data: { response_id: string } }).data.response_id));
    await waitFor('every event at the receiver', () => responseIds.every((id) => seen().has(id)), 120_000);
    const wh = new Webhook(secret);
    for (const r of received) expect(wh.verify(r.body, r.headers as Record<string, string>)).toMatchObject({ type: 'survey.answered' });
    // One webhook-id per event, however often it came.
    const idsByEvent = new Map<string, Set<string>>();
    for (const r of received) {
      const id = (JSON.parse(r.body) as { data: { response_id: string } }).data.response_id;
      idsByEvent.set(id, (idsByEvent.get(id) ?? new Set()).add(String(r.headers['webhook-id'])));
    }
    expect([...idsByEvent.values()].map((s) => s.size)).toEqual(Array(responseIds.length).fill(1));
  });
});
