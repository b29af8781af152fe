import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { readStackFile } from '@feedback/dev-stack';
import { SurveyAnswered } from '@feedback/proto/feedback/survey/v1/survey';
import { Kafka, logLevel } from 'kafkajs';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { waitFor } from './stack.js';

// kill -9 of the stack's webhooks service while it delivers (docs/api.md "Webhooks": at least
// once): events consumed but not yet delivered, and attempts in flight, are delivered after the
// restart (infra/apps.sh up, as an operator would); every delivery verifies with the Standard
// Webhooks library, and a repeat carries the same webhook-id.
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const stack = readStackFile();
const EVENTS = 200;

function pidOfWebhooks(): number {
  const [pid] = readFileSync(`${process.env.FEEDBACK_LOCAL_DIR ?? `${REPO_ROOT}.local`}/run/webhooks.pid`, 'utf8')
    .trim()
    .split(/\s+/);
  return Number(pid);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

const appsUp = () =>
  new Promise<void>((resolve, reject) =>
    execFile('bash', [`${REPO_ROOT}infra/apps.sh`, 'up'], { cwd: REPO_ROOT, timeout: 180_000 }, (err, out, errOut) =>
      err ? reject(new Error(`infra/apps.sh up: ${err.message}\n${out}${errOut}`)) : resolve(),
    ),
  );

async function api(method: string, path: string, auth: string, body?: unknown) {
  const res = await fetch(stack.base_url + path, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

describe('kill -9 of the webhooks service mid-delivery', () => {
  it(`delivers each of ${EVENTS} answers at least once, signed, the same webhook-id on a repeat`, async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    // A receiver slow enough (100 ms an answer) that the kill finds attempts in flight and events waiting.
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        setTimeout(() => res.writeHead(204).end(), 100);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const kafka = new Kafka({ clientId: 'webhooks-faults', brokers: stack.kafka_brokers, logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    try {
      const admin = `Bearer ${stack.admin_token}`;
      const account = await api('POST', '/admin/v1/accounts', admin, { name: 'webhooks faults' });
      const token = await api('POST', `/admin/v1/accounts/${String(account.id)}/tokens`, admin, { kind: 'api', name: 'api' });
      const created = await api('POST', '/v1/webhook_endpoints', `Token token=${String(token.token)}`, {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/answers`,
        events: ['survey.answered'],
      });
      const secret = String(created.secret);

      // What the survey service publishes on an answer, for this account.
      const ids = Array.from({ length: EVENTS }, () => randomUUID());
      await producer.send({
        topic: 'survey.answered',
        messages: ids.map((id) => ({
          key: randomUUID(),
          value: Buffer.from(
            SurveyAnswered.encode({
              response: {
                id,
                accountId: String(account.id),
                flowId: randomUUID(),
                channelId: randomUUID(),
                nodeId: randomUUID(),
                customerId: randomUUID(),
                linkId: randomUUID(),
                answers: [{ questionKey: 'nps', optionKeys: [], number: 10 }],
                builtInResponses: {},
                answeredAt: new Date().toISOString(),
              },
            }).finish(),
          ),
          headers: {
            'event-id': `survey.answered:${id}`,
            'content-type': 'application/x-protobuf; messageType=feedback.survey.v1.SurveyAnswered',
          },
        })),
      });

      await waitFor('the first deliveries', () => received.length >= 10, 60_000);
      const pid = pidOfWebhooks();
      process.kill(pid, 'SIGKILL');
      await waitFor('the killed process gone', () => !alive(pid), 20_000);
      const atKill = received.length;
      await appsUp();

      const responseIdOf = (body: string) => (JSON.parse(body) as { data: { response_id: string } }).data.response_id;
      await waitFor(
        'every answer delivered',
        () => {
          const seen = new Set(received.map((r) => responseIdOf(r.body)));
          return ids.every((id) => seen.has(id));
        },
        150_000,
      );
      // Every delivery verifies with the specification's library; each answer under one webhook-id, whatever the kill repeated.
      const wh = new Webhook(secret);
      const webhookIds = new Map<string, Set<string>>();
      for (const r of received) {
        const event = wh.verify(r.body, r.headers as Record<string, string>) as { type: string; data: { response_id: string } };
        expect(event.type).toBe('survey.answered');
        webhookIds.set(event.data.response_id, (webhookIds.get(event.data.response_id) ?? new Set()).add(String(r.headers['webhook-id'])));
      }
      expect([...webhookIds.values()].filter((s) => s.size !== 1)).toEqual([]);
      expect(new Set(webhookIds.keys())).toEqual(new Set(ids));
      console.log(`webhooks kill: ${atKill} of ${EVENTS} received at the kill, ${received.length} deliveries in all`);
    } finally {
      await producer.disconnect();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 300_000);
});
