import { randomUUID } from 'node:crypto';
import { explainFinds } from '@feedback/dev-stack';
import { pageQueryOf } from '@feedback/kit-core';
import type { MongoHandle } from '@feedback/kit-stores';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import { MongoRecordingProvider } from '../src/providers/adapters/mongo/recording.provider.js';
import { listRecordedMessages } from '../src/status/domain/recorded-messages.use-cases.js';
import { SMS_MESSAGES_PAGE } from '../src/shared/domain/phone-page.js';
import { sendOne } from './fakes/memory-deps.js';
import { dropTestDb, openTestDb, stack } from './stack.js';

describe('recording provider on the stack MongoDB', () => {
  let mongo: MongoHandle;
  let recording: MongoRecordingProvider;
  let t = Date.parse('2026-11-23T10:00:00.000Z');

  beforeAll(async () => {
    mongo = await openTestDb();
    // Distinct, increasing times make "newest first" observable.
    recording = new MongoRecordingProvider(mongo.db, { now: () => new Date((t += 1_000)) });
  });
  afterAll(async () => {
    await dropTestDb(mongo);
  });

  it('records what it was handed once, listable by account and phone, newest first, paginated', async () => {
    const messages = new MongoMessageRepository(mongo.db);
    const deps = { messages, provider: recording, clock: { now: () => new Date() } };
    const sharingId = randomUUID();
    for (const [phone, text] of [
      ['905321234567', 'first'],
      ['905321234567', 'second'],
      ['905551112233', 'other phone'],
      ['905321234567', 'third'],
    ] as const) {
      // A different sharing each, so one phone gets several messages.
      const sid = text === 'other phone' ? sharingId : randomUUID();
      expect(await sendOne(deps, { accountId: 'acc-1', sharingId: sid, campaignId: 'c', phone, text })).toBe('sent');
    }
    await sendOne(deps, { accountId: 'acc-2', sharingId: randomUUID(), campaignId: 'c', phone: '905321234567', text: 'foreign' });
    // A repeated hand-over of one message id is recorded once.
    await recording.send({
      messageId: `${sharingId}.905551112233`,
      accountId: 'acc-1',
      sharingId,
      to: '905551112233',
      text: 'other phone',
    });

    const settings = { defaultRegion: 'TR', maxPhones: 100, defaultSendWindow: null };
    const page1 = await listRecordedMessages(
      { recordedMessages: recording, messages, settings },
      { accountId: 'acc-1', phone: '0532 123 45 67', pageSize: 2 },
    );
    expect(page1.items.map((m) => m.text)).toEqual(['third', 'second']);
    expect(page1.items[0]).toMatchObject({ phone: '905321234567', status: 'sent', accountId: 'acc-1' });
    expect(page1.nextPageToken).not.toBe('');
    const page2 = await listRecordedMessages(
      { recordedMessages: recording, messages, settings },
      { accountId: 'acc-1', phone: '+905321234567', pageSize: 2, pageToken: page1.nextPageToken },
    );
    expect(page2.items.map((m) => m.text)).toEqual(['first']);
    expect(page2.nextPageToken).toBe('');

    // A delivery report that failed one: the list shows its record's status and the report's error.
    const undelivered = { status: '2', code: '001', description: 'UNDELIV' };
    await messages.applyDeliveryReport(`${sharingId}.905551112233`, 'failed', new Date(), undelivered);
    const all = await listRecordedMessages({ recordedMessages: recording, messages, settings }, { accountId: 'acc-1' });
    expect(all.items.map((m) => m.text)).toEqual(['third', 'other phone', 'second', 'first']);
    expect(all.items.map((m) => m.status)).toEqual(['sent', 'failed', 'sent', 'sent']);
    expect(all.items[1]).toMatchObject({ error: null, deliveryError: undelivered });
    expect(all.items[0]!.deliveryError).toBeUndefined();
    await expect(
      listRecordedMessages({ recordedMessages: recording, messages, settings }, { accountId: 'acc-1', phone: '12' }),
    ).rejects.toMatchObject({
      fields: { phone: 'too_short' },
    });
  });

  it('pages through messages of one millisecond and older ones, each once, newest first', async () => {
    // Five messages in one millisecond (a bulk hand-over), then two older ones.
    let at = Date.parse('2026-11-20T10:00:00.000Z');
    const tied = new MongoRecordingProvider(mongo.db, { now: () => new Date(at) });
    const send = (n: number) =>
      tied.send({ messageId: `tie-${n}`, accountId: 'acc-ties', sharingId: 's', to: '905321234567', text: `m${n}` });
    for (const n of [1, 2, 3, 4, 5]) await send(n);
    at -= 1_000;
    for (const n of [6, 7]) await send(n);
    const seen: string[] = [];
    let token = '';
    do {
      const page = await tied.list({ accountId: 'acc-ties', page: pageQueryOf({ pageSize: 2, pageToken: token }, SMS_MESSAGES_PAGE) });
      seen.push(...page.items.map((m) => m.text));
      token = page.nextPageToken;
    } while (token);
    expect(seen).toEqual(['m5', 'm4', 'm3', 'm2', 'm1', 'm7', 'm6']);
  });

  it('reads a page after a token from an index, by account and by phone, not by scanning the collection', async () => {
    const at = Date.parse('2026-11-19T10:00:00.000Z');
    const many = new MongoRecordingProvider(mongo.db, { now: () => new Date(at) });
    for (let n = 0; n < 30; n++)
      await many.send({
        messageId: `idx-${n}`,
        accountId: 'acc-idx',
        sharingId: 's',
        to: `90532123${String(n % 3).padStart(4, '0')}`,
        text: 't',
      });
    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const monitored = new MongoRecordingProvider(client.db(mongo.db.databaseName));
      for (const [phone, index, count] of [
        [undefined, 'account_created', 30],
        ['905321230001', 'account_phone_created', 10],
      ] as const) {
        const q = { accountId: 'acc-idx', ...(phone ? { phone } : {}) };
        const first = await many.list({ ...q, page: pageQueryOf({ pageSize: 4 }, SMS_MESSAGES_PAGE) });
        const second = pageQueryOf({ pageSize: 4, pageToken: first.nextPageToken }, SMS_MESSAGES_PAGE);
        const plans = await explainFinds(client, () => monitored.list({ ...q, page: second }));
        expect(plans.length, index).toBeGreaterThan(0);
        for (const plan of plans) {
          expect(plan.stages, index).toContain('IXSCAN');
          expect(plan.stages, index).not.toContain('COLLSCAN');
          expect(plan.indexes, index).toEqual([index]);
          expect(plan.docsExamined, index).toBeLessThanOrEqual(count);
        }
      }
    } finally {
      await client.close();
    }
  });
});
