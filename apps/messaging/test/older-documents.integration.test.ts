import { randomUUID } from 'node:crypto';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import { MongoSharingRepository } from '../src/shared/adapters/mongo/sharing.repository.js';
import { KANNEL_DELIVERY_RULE, receiveDeliveryReport } from '../src/status/domain/delivery-report.js';
import { getSharingStatus } from '../src/status/domain/sharing-status.use-cases.js';
import { messageId } from '../src/shared/domain/sms-message.js';
import { MemoryCampaigns, noClicks, noLinkStates } from './fakes/memory-deps.js';
import { dropTestDb, openTestDb, testSensitive } from './stack.js';

const noReportEvents = { reported: async () => undefined };

/**
 * Documents as earlier versions of messaging wrote them, inserted raw into a fresh database and
 * read by today's repositories and use cases (docs/decisions.md "Compatible contracts and
 * documents"): a sharing whose recipients are one document each (before they were stored in
 * chunks), and message records without `dlr` (before each kept its provider's report rule).
 */
describe('messaging reads the documents its earlier versions wrote', () => {
  let mongo: MongoHandle;
  let sharings: MongoSharingRepository;
  let messages: MongoMessageRepository;
  const clock = { now: () => new Date('2026-11-25T10:00:00Z') };
  const deployment = { statusParam: 'status', ...KANNEL_DELIVERY_RULE };

  beforeAll(async () => {
    mongo = await openTestDb();
    sharings = new MongoSharingRepository(mongo.db, testSensitive);
    messages = new MongoMessageRepository(mongo.db);
  });
  afterAll(async () => {
    await dropTestDb(mongo);
  });

  const raw = (name: string) => mongo.db.collection<{ _id: string; [field: string]: unknown }>(name);
  const at = new Date('2026-11-23T12:00:00Z');
  const later = new Date('2026-11-23T12:00:05Z');

  /** A sharing of three phones with its recipients one per document, as written before the chunks. */
  async function olderSharing() {
    const id = randomUUID();
    const phones = ['905320000003', '905320000001', '905320000002'];
    await raw('sharing_recipients').insertMany(
      phones.map((phone, i) => ({
        _id: `${id}.${phone}`,
        sharing_id: id,
        phone,
        input: `0532 000 000${i}`,
        attributes: { name: `n${i}` },
        built_in_responses: {},
      })),
    );
    await raw('sharings').insertOne({
      _id: id,
      account_id: 'acc',
      campaign_id: 'camp',
      created_at: at,
      accepted: 3,
      duplicates: 0,
      rejected: [{ phone: '12', reason: 'not a mobile number' }],
    });
    return { id, phones };
  }

  /** A message record with every field of the first version and no `dlr`. */
  const olderMessage = (sharingId: string, phone: string, status: string, attempts: number, error: string | null = null) => ({
    _id: messageId(sharingId, phone),
    account_id: 'acc',
    sharing_id: sharingId,
    campaign_id: 'camp',
    phone,
    text: 'Your survey: https://s.example/abc',
    provider: 'kannel',
    status,
    attempts,
    provider_message_id: status === 'sent' ? 'k-1' : null,
    error,
    created_at: at,
    updated_at: later,
  });

  it("GET /v1/sms_sharings/{id}: an older sharing's recipients and message records, each recipient's status", async () => {
    const s = await olderSharing();
    await raw('sms_messages').insertMany([
      olderMessage(s.id, '905320000001', 'sent', 1),
      olderMessage(s.id, '905320000002', 'retryable', 1, 'ECONNREFUSED'),
    ]);
    const status = { campaigns: new MemoryCampaigns(), links: { activateMany: async () => [], statesOf: noLinkStates } };
    const { sharing, recipients, counts, segments, funnel } = await getSharingStatus(
      { sharings, messages, ...status, shortener: { shortenMany: async () => [], countClicked: noClicks }, clock },
      'acc',
      s.id,
    );
    expect(sharing).toEqual({
      id: s.id,
      accountId: 'acc',
      campaignId: 'camp',
      createdAt: at,
      accepted: 3,
      duplicates: 0,
      rejected: [{ phone: '12', reason: 'not a mobile number' }],
      scheduledFor: null,
      cancelledAt: null,
    });
    // Records written before the cost was kept have none: no encoding, no segments.
    const costless = { encoding: null, segments: 0, reminders: [] };
    expect(recipients).toEqual([
      { phone: '905320000001', status: 'sent', error: null, updatedAt: later, ...costless },
      { phone: '905320000002', status: 'retryable', error: 'ECONNREFUSED', updatedAt: later, ...costless },
      { phone: '905320000003', status: 'queued', error: null, updatedAt: null, ...costless },
    ]);
    expect(counts).toMatchObject({ sent: 1, other: 1, queued: 1, scheduled: 0 });
    expect(segments).toBe(0);
    expect(funnel).toEqual({ clicked: 0, answered: 0 });
  });

  it('a message record without dlr reads as one without a delivery rule, and its report is read by the deployment rule', async () => {
    const s = await olderSharing();
    const id = messageId(s.id, '905320000001');
    await raw('sms_messages').insertOne(olderMessage(s.id, '905320000001', 'sent', 1));
    expect(await messages.findById(id)).toEqual({
      id,
      accountId: 'acc',
      sharingId: s.id,
      campaignId: 'camp',
      phone: '905320000001',
      text: 'Your survey: https://s.example/abc',
      provider: 'kannel',
      status: 'sent',
      attempts: 1,
      providerMessageId: 'k-1',
      error: null,
      createdAt: at,
      updatedAt: later,
    });
    // A progress code changes nothing; Kannel's "1" (delivered) is final.
    const deps = { messages, reportEvents: noReportEvents, clock };
    expect(await receiveDeliveryReport(deps, { messageId: id, fields: { status: '8' } }, deployment)).toBe('progress');
    expect(await receiveDeliveryReport(deps, { messageId: id, fields: { status: '1' } }, deployment)).toBe('applied');
    expect(await messages.findById(id)).toMatchObject({ status: 'delivered', updatedAt: clock.now() });
  });

  it('an older retryable record is claimed again by today’s dispatcher, which records its provider’s rule on it', async () => {
    const s = await olderSharing();
    const id = messageId(s.id, '905320000002');
    await raw('sms_messages').insertOne(olderMessage(s.id, '905320000002', 'retryable', 1, 'ECONNREFUSED'));
    const rule = { statusParam: 'state', delivered: ['DELIVRD'], failed: ['UNDELIV'] };
    const claimed = await messages.claim({
      id,
      accountId: 'acc',
      sharingId: s.id,
      campaignId: 'camp',
      phone: '905320000002',
      text: 'Your survey: https://s.example/abc',
      provider: 'account-http',
      createdAt: clock.now(),
      deliveryRule: rule,
    });
    expect(claimed).toMatchObject({ status: 'sending', attempts: 2, provider: 'account-http', deliveryRule: rule });
    expect(await raw('sms_messages').findOne({ _id: id })).toMatchObject({
      attempts: 2,
      dlr: { status_param: 'state', delivered: ['DELIVRD'], failed: ['UNDELIV'] },
      created_at: at,
    });
  });
});
