import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createProducer, ensureTopics, type Producer } from '@feedback/kit-kafka';
import type { MongoHandle } from '@feedback/kit-stores';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runClickConsumer } from '../src/adapters/kafka/click.consumer.js';
import { MongoClickTallyRepository } from '../src/adapters/mongo/click-tally.repository.js';
import { countClicks } from '../src/domain/click-counting.js';
import { dropTestDb, kafka, logger, openTestDb, uniq, waitFor } from './stack.js';

const here = dirname(fileURLToPath(import.meta.url));
const tsxLoader = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs')).href;

// Real Kafka and the real MongoDB-compatible server; random topics, groups and databases.
describe('click consumer', () => {
  let mongo: MongoHandle;
  let tallies: MongoClickTallyRepository;
  let producer: Producer;
  const running: Array<{ stop(): Promise<void> }> = [];

  beforeAll(async () => {
    mongo = await openTestDb('shortener_clicks');
    tallies = new MongoClickTallyRepository(mongo.db);
    producer = createProducer(kafka, { logger });
    await producer.connect();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((c) => c.stop()));
  });
  afterAll(async () => {
    await producer?.disconnect();
    await dropTestDb(mongo);
  });

  const start = async (topic: string, groupId: string) => {
    const c = await runClickConsumer({
      kafka,
      topic,
      groupId,
      logger,
      sessionTimeout: 6_000,
      heartbeatInterval: 500,
      onClicks: (partition, clicks) => countClicks(tallies, partition, clicks),
    });
    running.push(c);
    return c;
  };
  const freshTopic = async () => {
    const topic = uniq('link.clicked');
    await ensureTopics(kafka, [{ topic, numPartitions: 3 }, { topic: `${topic}.dlq` }]);
    return topic;
  };
  /** One record standing for `n` clicks of a link, as a gateway sends them. */
  const click = (code: string, n = 1) => ({
    key: code,
    value: Buffer.from(
      LinkClicked.encode(LinkClicked.fromPartial({ code, clickedAtMs: Array.from({ length: n }, () => Date.now()) })).finish(),
    ),
  });
  /** Per code, records of 1 or 3 clicks adding up to the given number. */
  const publish = (topic: string, codes: Record<string, number>) =>
    producer.publish(
      topic,
      Object.entries(codes).flatMap(([code, n]) => [
        ...Array.from({ length: Math.floor(n / 3) }, () => click(code, 3)),
        ...Array.from({ length: n % 3 }, () => click(code)),
      ]),
    );
  const count = async (code: string) => (await tallies.get(code))?.count ?? 0;
  const codeOf = (p: string) => `${p}${uniq('x').slice(2, 8)}`.replace(/[^A-Za-z0-9]/g, '');

  it('counts every click once across a graceful restart and a full replay', async () => {
    const topic = await freshTopic();
    const groupId = uniq('g');
    const [a, b] = [codeOf('Aa'), codeOf('Bb')];
    await publish(topic, { [a]: 40, [b]: 7 });
    const first = await start(topic, groupId);
    await waitFor('the first clicks', async () => (await count(a)) === 40 && (await count(b)) === 7);
    await first.stop();

    await publish(topic, { [a]: 10 });
    await start(topic, groupId);
    await waitFor('the clicks sent while stopped', async () => (await count(a)) === 50);
    await Promise.all(running.splice(0).map((c) => c.stop()));

    // Everything delivered a second time, as after losing the committed offsets.
    const admin = kafka.admin();
    await admin.connect();
    await admin.resetOffsets({ groupId, topic, earliest: true });
    await admin.disconnect();
    await publish(topic, { [b]: 1 });
    await start(topic, groupId);
    await waitFor('the click after the replay', async () => (await count(b)) === 8);
    expect(await count(a)).toBe(50);
  });

  it('counts once when a consumer dies between its write and its commit', async () => {
    const topic = await freshTopic();
    const groupId = uniq('g');
    const code = codeOf('Cc');
    await publish(topic, { [code]: 25 });

    const child = spawn(
      process.execPath,
      ['--import', tsxLoader, join(here, 'fixtures/stalling-click-consumer.ts'), topic, groupId, mongo.db.databaseName],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let counted = -1;
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await waitFor('the doomed consumer to count its first batch', () => /counted \d+/.test(out), 40_000);
      counted = Number(/counted (\d+)/.exec(out)![1]);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect(counted).toBeGreaterThan(0);
    expect(await count(code)).toBe(counted);

    await publish(topic, { [code]: 5 });
    await start(topic, groupId); // gets all 30 again once the dead member's session ends
    await waitFor('the new clicks', async () => (await count(code)) === 30, 40_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await count(code)).toBe(30);
  });

  it('dead-letters an undecodable record and keeps counting', async () => {
    const topic = await freshTopic();
    const code = codeOf('Dd');
    await producer.publish(topic, [{ key: 'junk', value: Buffer.from('not a protobuf LinkClicked') }, click(code)]);
    await start(topic, uniq('g'));
    await waitFor('the good click', async () => (await count(code)) === 1);

    const seen: string[] = [];
    const probe = kafka.consumer({ groupId: uniq('dlq') });
    await probe.connect();
    await probe.subscribe({ topic: `${topic}.dlq`, fromBeginning: true });
    await probe.run({ eachMessage: async ({ message }) => void seen.push(message.value?.toString() ?? '') });
    await waitFor('the dead letter', () => seen.length === 1);
    await probe.disconnect();
    expect(seen).toEqual(['not a protobuf LinkClicked']);
  });
});
