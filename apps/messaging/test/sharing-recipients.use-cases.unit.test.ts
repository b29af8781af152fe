import { encodePageToken } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { listSharingRecipients } from '../src/status/domain/sharing-recipients.use-cases.js';
import type { Recipient, SmsSharing } from '../src/shared/domain/sharing.js';
import { messageId, type MessageStatus, type SmsMessage } from '../src/shared/domain/sms-message.js';
import type { MessagingSettings } from '../src/shared/ports.js';
import { MemoryMessages, MemorySharings } from './fakes/memory-deps.js';

// ListSharingRecipients on in-memory ports: pages that follow one another across the recipient
// documents (1,000 each) without a gap or a repeat, the status and phone filters, and tokens.

const NOW = new Date('2026-11-23T10:00:00Z');
const phoneOf = (i: number) => `90532${String(i).padStart(7, '0')}`;

/** Every third recipient failed, the others delivered. */
const everyThirdFailed = (i: number): MessageStatus => (i % 3 === 0 ? 'failed' : 'delivered');

async function setup(count: number, opts: Partial<SmsSharing> = {}, statusAt = everyThirdFailed) {
  const sharings = new MemorySharings();
  const messages = new MemoryMessages();
  const sharing: SmsSharing = {
    id: 'sh-1',
    accountId: 'acc',
    campaignId: 'camp',
    createdAt: NOW,
    accepted: count,
    duplicates: 0,
    rejected: [],
    scheduledFor: null,
    cancelledAt: null,
    ...opts,
  };
  const writer = sharings.writeRecipients(sharing.id);
  const recipients: Recipient[] = Array.from({ length: count }, (_, i) => ({
    phone: phoneOf(i),
    input: '',
    attributes: {},
    builtInResponses: {},
  }));
  await writer.add(recipients);
  await writer.complete(sharing);
  const record = (i: number, status: MessageStatus, reminder = 0): SmsMessage => ({
    id: messageId(sharing.id, phoneOf(i), reminder),
    accountId: 'acc',
    sharingId: sharing.id,
    campaignId: 'camp',
    phone: phoneOf(i),
    text: 'x',
    provider: 'outbox',
    status,
    attempts: 1,
    providerMessageId: null,
    error: status === 'failed' ? 'provider_refused' : null,
    createdAt: NOW,
    updatedAt: NOW,
    reminder,
    encoding: 'gsm7',
    segments: 1,
  });
  // Each as `statusAt` says, the last ten not claimed yet; one reminder.
  for (let i = 0; i < count - 10; i++) {
    const m = record(i, statusAt(i));
    messages.items.set(m.id, m);
  }
  const reminder = record(1, 'sent', 1);
  messages.items.set(reminder.id, reminder);
  const deps = {
    sharings,
    messages,
    clock: { now: () => NOW },
    settings: { defaultRegion: 'TR' } as MessagingSettings,
    tallies: { sharingTotals: async () => new Map() },
  };
  const list = (q: { status?: string; phone?: string; pageSize?: number; pageToken?: string; accountId?: string; sharingId?: string }) =>
    listSharingRecipients(deps, { accountId: 'acc', sharingId: sharing.id, status: '', phone: '', ...q });
  return { list, sharing, messages, sharings };
}

describe('ListSharingRecipients', () => {
  it('pages through 2,345 recipients in stored order across documents, each once', async () => {
    const { list } = await setup(2_345);
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await list({ pageSize: 400, pageToken: token });
      seen.push(...page.recipients.map((r) => r.phone));
      token = page.nextPageToken;
      pages++;
    } while (token && pages < 20);
    expect(pages).toBe(6);
    expect(seen).toEqual(Array.from({ length: 2_345 }, (_, i) => phoneOf(i)));
  });

  it('ends on a page that closes the last document without a token to an empty page', async () => {
    const { list } = await setup(1_000);
    const first = await list({ pageSize: 500 });
    const second = await list({ pageSize: 500, pageToken: first.nextPageToken });
    expect(second.recipients).toHaveLength(500);
    expect(second.nextPageToken).toBe('');
  });

  it('gives each recipient its status, error, cost and reminders; unclaimed ones wait', async () => {
    const { list } = await setup(30);
    const { recipients, state } = await list({});
    expect(state).toBe('in_progress');
    expect(recipients[0]).toMatchObject({ status: 'failed', error: 'provider_refused', encoding: 'gsm7', segments: 1 });
    expect(recipients[1]).toMatchObject({ status: 'delivered', reminders: [{ reminder: 1, status: 'sent' }] });
    expect(recipients[29]).toMatchObject({ status: 'queued', encoding: null, segments: 0 });
  });

  it('filters by status across documents and finds one phone in any notation', async () => {
    const { list } = await setup(2_100);
    const failed: string[] = [];
    let token = '';
    do {
      const page = await list({ status: 'failed', pageSize: 300, pageToken: token });
      expect(page.recipients.every((r) => r.status === 'failed')).toBe(true);
      failed.push(...page.recipients.map((r) => r.phone));
      token = page.nextPageToken;
    } while (token);
    expect(failed).toHaveLength(697); // i % 3 === 0 for i < 2,090
    expect((await list({ status: 'queued' })).recipients).toHaveLength(10);
    expect((await list({ phone: '0532 000 00 07' })).recipients.map((r) => r.phone)).toEqual([phoneOf(7)]);
    expect((await list({ phone: '+90 532 000 0007', status: 'failed' })).recipients).toEqual([]);
    expect((await list({ phone: '+905559999999' })).recipients).toEqual([]);
    expect((await list({ phone: `+${phoneOf(2_099)}` })).recipients).toMatchObject([{ phone: phoneOf(2_099), status: 'queued' }]);
  });

  it('says a scheduled sharing’s unclaimed recipients are scheduled', async () => {
    const { list } = await setup(12, { scheduledFor: new Date(NOW.getTime() + 3_600_000) });
    const page = await list({ status: 'scheduled' });
    expect(page.state).toBe('scheduled');
    expect(page.recipients).toHaveLength(10);
  });

  it('refuses a bad status, phone or token, and another account’s sharing as an unknown one', async () => {
    const { list } = await setup(1_500);
    await expect(list({ status: 'lost' })).rejects.toMatchObject({ kind: 'invalid', fields: { status: expect.any(String) } });
    await expect(list({ phone: 'not a phone' })).rejects.toMatchObject({ kind: 'invalid', fields: { phone: expect.any(String) } });
    await expect(list({ pageToken: 'forged' })).rejects.toMatchObject({ kind: 'invalid', fields: { page_token: expect.any(String) } });
    await expect(list({ accountId: 'other' })).rejects.toMatchObject({ kind: 'not_found', fields: { sharing_id: 'sh-1' } });
    // A well-made token of another sharing (a page of sh-2) is no token of this one.
    const ofOther = encodePageToken('sharing_recipients', { at: new Date(1), id: 'sh-2/0' });
    await expect(list({ pageToken: ofOther })).rejects.toMatchObject({ kind: 'invalid', fields: { page_token: expect.any(String) } });
    const ofThis = encodePageToken('sharing_recipients', { at: new Date(1), id: 'sh-1/0' });
    expect((await list({ pageToken: ofThis, pageSize: 1 })).recipients.map((r) => r.phone)).toEqual([phoneOf(1_000)]);
  });

  it('pages a rare status through every match once, in phone order, from the records of that status', async () => {
    // 1 in 97 failed, spread over 3 recipient documents.
    const { list, messages } = await setup(2_600, {}, (i) => (i % 97 === 5 ? 'failed' : 'delivered'));
    let read = 0;
    const findMany = messages.findMany.bind(messages);
    messages.findMany = (ids) => ((read += ids.length), findMany(ids));
    const failed: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await list({ status: 'failed', pageSize: 7, pageToken: token });
      expect(page.recipients.every((r) => r.status === 'failed')).toBe(true);
      failed.push(...page.recipients.map((r) => r.phone));
      token = page.nextPageToken;
      pages++;
    } while (token && pages < 10);
    const expected = Array.from({ length: 2_590 }, (_, i) => i).filter((i) => i % 97 === 5);
    expect(failed).toEqual(expected.map(phoneOf));
    expect(pages).toBe(Math.ceil(expected.length / 7));
    // Only the listed recipients' records (a first message and three reminders each), not every recipient's.
    expect(read).toBe(expected.length * 4);
    expect((await list({ status: 'cancelled' })).recipients).toEqual([]);
  });

  it('lists a recipient by its first message’s status, not a reminder’s', async () => {
    const { list, messages } = await setup(30);
    // Recipient 1's reminder is sent, its first message delivered; recipient 4's first message sent.
    const first = messages.items.get(messageId('sh-1', phoneOf(4)))!;
    messages.items.set(first.id, { ...first, status: 'sent' });
    const sent = await list({ status: 'sent' });
    expect(sent.recipients.map((r) => [r.phone, r.status])).toEqual([[phoneOf(4), 'sent']]);
    expect((await list({ status: 'delivered' })).recipients.map((r) => r.phone)).toContain(phoneOf(1));
  });

  it('refuses a status page’s token on another status, another sharing or the unfiltered list', async () => {
    const { list } = await setup(40);
    const first = await list({ status: 'failed', pageSize: 2 });
    expect(first.nextPageToken).not.toBe('');
    const second = await list({ status: 'failed', pageSize: 2, pageToken: first.nextPageToken });
    expect(second.recipients.map((r) => r.phone)).toEqual([phoneOf(6), phoneOf(9)]);
    const refused = { kind: 'invalid', fields: { page_token: expect.any(String) } };
    await expect(list({ status: 'delivered', pageToken: first.nextPageToken })).rejects.toMatchObject(refused);
    await expect(list({ pageToken: first.nextPageToken })).rejects.toMatchObject(refused);
    await expect(list({ status: 'failed', pageToken: (await list({ pageSize: 2 })).nextPageToken })).rejects.toMatchObject(refused);
    const ofOther = encodePageToken('sharing_recipients_by_status', { at: new Date(0), id: `sh-2/failed/${phoneOf(3)}` });
    await expect(list({ status: 'failed', pageToken: ofOther })).rejects.toMatchObject(refused);
  });

  it('starts a first status page at the lowest phone of the first and last recipient documents, read once a sharing', async () => {
    const { list, messages, sharings } = await setup(2_345, { id: 'sh-near' });
    const docs: number[] = [];
    // The lowest phone in the last document (a list sorted high to low).
    sharings.recipientPhonesAt = async (_id, n) => (docs.push(n), n === 0 ? [phoneOf(900), phoneOf(500)] : [phoneOf(2_200), phoneOf(100)]);
    const nears: (string | undefined)[] = [];
    const firstsWithStatus = messages.firstsWithStatus.bind(messages);
    messages.firstsWithStatus = (q) => (nears.push(q.near), firstsWithStatus(q));
    const first = await list({ status: 'failed' });
    await list({ status: 'failed' });
    await list({ status: 'failed', pageToken: first.nextPageToken });
    expect(docs.sort()).toEqual([0, 2]);
    expect(nears).toEqual([phoneOf(100), phoneOf(100), undefined]);
  });
});
