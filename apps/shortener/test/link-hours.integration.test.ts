import { createProducer, ensureTopics, type Producer } from '@feedback/kit-kafka';
import type { MongoHandle } from '@feedback/kit-stores';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runClickConsumer } from '../src/adapters/kafka/click.consumer.js';
import { MongoLinkAccounts } from '../src/adapters/mongo/link-accounts.repository.js';
import { MongoLinkHourRepository } from '../src/adapters/mongo/link-hours.repository.js';
import { countClickHours } from '../src/domain/link-hours.js';
import { dropTestDb, kafka, logger, openTestDb, uniq, waitFor } from './stack.js';

const H = 3_600_000;

// Real Kafka and the real MongoDB-compatible server; a random topic, group and database.
describe('link hour counters', () => {
  let mongo: MongoHandle;
  let hours: MongoLinkHourRepository;
  let producer: Producer;
  const running: Array<{ stop(): Promise<void> }> = [];

  beforeAll(async () => {
    mongo = await openTestDb('shortener_link_hours');
    hours = new MongoLinkHourRepository(mongo.db);
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
      onClicks: (partition, records) => countClickHours({ hours, accounts: new MongoLinkAccounts(mongo.db) }, partition, records),
    });
    running.push(c);
    return c;
  };
  const phone = { device: 'mobile', os: 'iOS', browser: 'Mobile Safari', referrerHost: 'l.instagram.com', country: 'TR' };
  const record = (code: string, at: number, clicks: number, excluded: number) => ({
    key: code,
    value: Buffer.from(
      LinkClicked.encode({
        code,
        clickedAtMs: Array.from({ length: clicks }, () => at),
        details: Array.from({ length: clicks }, () => phone),
        // Half as the times older gateways send, the rest as a count per second.
        excludedAtMs: Array.from({ length: Math.floor(excluded / 2) }, () => at),
        excludedSeconds: excluded > 0 ? [{ secondMs: at - (at % 1000), count: excluded - Math.floor(excluded / 2) }] : [],
      }).finish(),
    ),
  });
  const totals = async (code: string, from: number) => {
    const found = await hours.range(code, new Date(from), new Date(from + 2 * H));
    return { clicks: found.reduce((n, h) => n + h.clicks, 0), botsExcluded: found.reduce((n, h) => n + h.botsExcluded, 0), hours: found };
  };

  it('counts every record once when Kafka delivers the whole topic again, lists and excluded redirects included', async () => {
    const topic = uniq('link.clicked');
    await ensureTopics(kafka, [{ topic, numPartitions: 3 }, { topic: `${topic}.dlq` }]);
    const groupId = uniq('g');
    const code = `Hr${uniq('x')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(-8)}`;
    const hour = Math.floor(Date.now() / H) * H - 5 * H;
    await mongo.db
      .collection<{ _id: string; full_url: string; account_id: string; created_at: Date }>('links')
      .insertOne({ _id: code, full_url: 'https://example.com', account_id: 'acc-hours', created_at: new Date() });
    // Clicks in two hours, and a record of excluded redirects only.
    await producer.publish(topic, [record(code, hour + 10, 3, 1), record(code, hour + H + 10, 2, 0), record(code, hour + 20, 0, 4)]);
    await start(topic, groupId);
    await waitFor('the first counts', async () => (await totals(code, hour)).clicks === 5 && (await totals(code, hour)).botsExcluded === 5);
    await Promise.all(running.splice(0).map((c) => c.stop()));

    // Everything delivered a second time, as after losing the committed offsets.
    const admin = kafka.admin();
    await admin.connect();
    await admin.resetOffsets({ groupId, topic, earliest: true });
    await admin.disconnect();
    await producer.publish(topic, [record(code, hour + 30, 1, 0)]);
    await start(topic, groupId);
    await waitFor('the click after the replay', async () => (await totals(code, hour)).clicks === 6);
    const after = await totals(code, hour);
    expect(after.botsExcluded).toBe(5);
    expect(after.hours.map((h) => h.clicks)).toEqual([4, 2]);
    // A referrer host's dots survive the field-name encoding.
    expect(after.hours[0]).toMatchObject({ devices: { mobile: 4 }, referrers: { 'l.instagram.com': 4 }, countries: { TR: 4 } });
    const stored = await mongo.db.collection('link_hours').findOne({ code });
    expect(stored).toMatchObject({ account_id: 'acc-hours' });
  });
});
