import { randomUUID } from 'node:crypto';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCampaignTallies, recountCampaign } from '../src/reports/adapters/mongo/tally-recount.js';
import { finishRound, relayTallies } from '../src/reports/domain/tally-relay.use-cases.js';
import { increments } from '../src/reports/domain/tally.js';
import { tallyDeps } from '../src/reports/reports.wiring.js';
import type { ReportsDeps } from '../src/reports/tally.ports.js';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import { MongoSharingRepository } from '../src/shared/adapters/mongo/sharing.repository.js';
import { messageId, unsentRecord, type SmsMessage } from '../src/shared/domain/sms-message.js';
import { dropTestDb, openTestDb, testSensitive } from './stack.js';

/*
 * The campaign report's counters on the stack MongoDB: facts recorded by the message and sharing
 * repositories (each once, whatever repeats), the relay's rounds (also cut short after each step,
 * then finished by a fresh relay), and the counters equal to a recount of the records.
 */
describe('campaign report counters: facts → relay → counters equal the recount', () => {
  let mongo: MongoHandle;
  let messages: MongoMessageRepository;
  let sharings: MongoSharingRepository;
  let deps: ReturnType<typeof tallyDeps>;

  beforeAll(async () => {
    mongo = await openTestDb();
    messages = new MongoMessageRepository(mongo.db);
    sharings = new MongoSharingRepository(mongo.db, testSensitive);
    deps = tallyDeps(mongo.db);
  });
  afterAll(async () => {
    await dropTestDb(mongo);
  });

  const T0 = new Date('2026-11-28T10:10:00.000Z');
  const later = (min: number) => new Date(T0.getTime() + min * 60_000);
  const owing = () => mongo.db.collection('sms_messages').countDocuments({ 'tally_owed.at': { $gte: new Date(0) } });

  /** A campaign's sharing of `phones`, and each message path's facts: sent, failed, opted out, unknown, reports, a reminder. */
  async function campaignWithFacts(phones = 8) {
    const account = `acc_${randomUUID()}`;
    const campaign = `camp_${randomUUID()}`;
    const sharingId = randomUUID();
    const writer = sharings.writeRecipients(sharingId);
    await writer.complete({
      id: sharingId,
      accountId: account,
      campaignId: campaign,
      createdAt: T0,
      accepted: phones,
      duplicates: 0,
      rejected: [],
      scheduledFor: null,
      cancelledAt: null,
    });
    const phone = (i: number) => `90532${String(1_000_000 + i)}`;
    const base = (i: number, reminder = 0) => ({
      id: messageId(sharingId, phone(i), reminder),
      accountId: account,
      sharingId,
      campaignId: campaign,
      phone: phone(i),
      text: 'x',
      provider: 'outbox',
      createdAt: T0,
      link: `http://s.example/c${i}`,
      encoding: 'gsm7' as const,
      segments: 1 + (i % 2),
      ...(reminder > 0 && { reminder }),
    });
    const stored = (i: number, status: SmsMessage['status'], at: Date, reminder = 0): SmsMessage => ({
      ...base(i, reminder),
      status,
      attempts: 1,
      providerMessageId: null,
      error: null,
      updatedAt: at,
    });
    // The recording provider's path: records stored with their outcome (and one stored twice).
    expect(await messages.recordMany([stored(0, 'sent', later(1)), stored(1, 'failed', later(2))])).toEqual([true, true]);
    expect(await messages.recordMany([stored(0, 'sent', later(9))])).toEqual([false]);
    // Refused for good before any provider, and opted out.
    await messages.recordMany([
      unsentRecord({ accountId: account, sharingId, campaignId: campaign, phone: phone(2), status: 'failed', error: 'no', at: later(3) }),
      unsentRecord({ accountId: account, sharingId, campaignId: campaign, phone: phone(3), status: 'opted_out', at: later(4) }),
    ]);
    // Claimed, then finished: sent, unknown, failed; a finish repeated changes nothing.
    const claimed = await messages.claimMany([base(4), base(5), base(6)]);
    const finish = [
      { id: claimed[0]!.id, attempt: 1, status: 'sent' as const, at: later(5), segments: claimed[0]!.segments },
      { id: claimed[1]!.id, attempt: 1, status: 'unknown' as const, at: later(5), segments: claimed[1]!.segments },
      { id: claimed[2]!.id, attempt: 1, status: 'failed' as const, at: later(5), segments: claimed[2]!.segments },
    ];
    await messages.finishMany(finish);
    await messages.finishMany(finish);
    // Reports: delivered after sent; failed resolving an unknown (sent too); a repeat is ignored.
    expect(await messages.applyDeliveryReport(base(4).id, 'delivered', later(20))).not.toBeNull();
    expect(await messages.applyDeliveryReport(base(4).id, 'delivered', later(21))).toBeNull();
    expect(await messages.applyDeliveryReport(base(5).id, 'failed', later(22))).not.toBeNull();
    // A report that overtook the provider's answer: sent and delivered by the report, the finish then changes nothing.
    const [overtaken] = await messages.claimMany([base(7)]);
    await messages.applyDeliveryReport(overtaken!.id, 'delivered', later(23));
    await messages.finishMany([{ id: overtaken!.id, attempt: 1, status: 'sent', at: later(24), segments: overtaken!.segments }]);
    // A reminder of phone 0: its segments count, nothing else.
    await messages.recordMany([stored(0, 'sent', later(30), 1)]);
    // The answered fact as the survey.answered consumer records it (its filter and entry).
    await mongo.db
      .collection<{ _id: string }>('sms_messages')
      .updateOne(
        { _id: base(0).id, answered_at: null },
        { $set: { answered_at: later(40), nps_score: 9 }, $push: { tally_owed: { f: 'answered', at: later(40), nps: 9 } } },
      );
    return { account, campaign, sharingId, id: (i: number) => base(i).id };
  }

  async function relayAll(d: ReportsDeps = deps) {
    while (await relayTallies(d, 4));
  }

  it('records each fact once and the relay counts it once: counters equal the recount and the expected funnel', async () => {
    const c = await campaignWithFacts();
    const doc = await mongo.db.collection('sms_messages').findOne({ _id: c.id(5) as never });
    expect(doc).toMatchObject({ status: 'failed', sent_at: later(22), failed_at: later(22) });
    expect(doc!['tally_owed']).toEqual([
      { f: 'sent', at: later(22), seg: 2 },
      { f: 'failed', at: later(22) },
    ]);

    await relayAll();
    expect(await owing()).toBe(0);
    const counted = await readCampaignTallies(mongo.db, c.campaign);
    expect(counted).toEqual(await recountCampaign(mongo.db, c.account, c.campaign));
    expect(counted.sharings.get(c.sharingId)).toEqual({
      recipients: 8,
      sent: 4, // 0 recorded, 4 finished, 5 by its report, 7 by its report
      delivered: 2,
      failed: 4, // 1 recorded, 2 before any provider, 5 by its report, 6 by the provider
      opted_out: 1,
      answered: 1,
      promoters: 1,
      segments: 1 + 1 + 2 + 2 + 1, // 0, 4, 5, 7, and 0's reminder
    });
    const starts = [...counted.buckets.keys()].map((k) => k.split('|')[1]);
    expect(starts).toEqual(expect.arrayContaining(['2026-11-28T10:00:00.000Z', '2026-11-28T10:15:00.000Z', '2026-11-28T10:30:00.000Z']));
    expect(await mongo.db.collection('tally_journal').countDocuments()).toBe(0);
  });

  it.each(['after the journal', 'after the counters', 'after the pull'] as const)(
    'a round cut short %s is finished exactly once by a fresh relay',
    async (cut) => {
      const c = await campaignWithFacts(5);
      // Steps of one round by hand, stopping where a crash would.
      const taken = await deps.owed.take(1_000);
      const round = { token: randomUUID(), createdAt: new Date(), increments: increments(taken), records: taken };
      await deps.journal.open(round);
      if (cut !== 'after the journal') await deps.counters.apply(round.token, round.increments);
      if (cut === 'after the pull') await deps.owed.settle(round.records);
      // A fresh relay (a new process) finishes the journal first, then relays what is left.
      await relayAll(tallyDeps(mongo.db));
      expect(await owing()).toBe(0);
      expect(await readCampaignTallies(mongo.db, c.campaign)).toEqual(await recountCampaign(mongo.db, c.account, c.campaign));
      // Finishing the same round again changes nothing.
      await finishRound(deps, round);
      expect(await readCampaignTallies(mongo.db, c.campaign)).toEqual(await recountCampaign(mongo.db, c.account, c.campaign));
    },
  );

  it('keeps entries owed while a round runs: a report between the take and the pull is counted by the next round', async () => {
    const c = await campaignWithFacts(8);
    let reported = false;
    const racing: ReportsDeps = {
      ...deps,
      owed: {
        take: (n) => deps.owed.take(n),
        settle: async (records) => {
          if (!reported) {
            reported = true;
            // Phone 0 was taken with its sent (and answered) entries: its report lands mid-round.
            expect(await messages.applyDeliveryReport(c.id(0), 'delivered', later(50))).not.toBeNull();
          }
          await deps.owed.settle(records);
        },
      },
    };
    // One round takes every owed record (phone 0's among them); the next one finds the report's entry.
    expect(await relayTallies(racing)).toBe(false);
    expect(reported).toBe(true);
    expect(await owing()).toBe(1);
    await relayAll();
    expect(await owing()).toBe(0);
    const counted = await readCampaignTallies(mongo.db, c.campaign);
    expect(counted).toEqual(await recountCampaign(mongo.db, c.account, c.campaign));
    expect(counted.sharings.get(c.sharingId)?.delivered).toBe(3);
  });
});
