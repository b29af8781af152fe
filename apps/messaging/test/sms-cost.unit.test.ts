import { describe, expect, it } from 'vitest';
import { parseAccountProviderConfig } from '../src/providers/adapters/http/account-provider.config.js';
import { getSharingStatus } from '../src/status/domain/sharing-status.use-cases.js';
import type { DispatchEvent, SmsCampaign, SmsSharing } from '../src/shared/domain/sharing.js';
import type { SmsMessage } from '../src/shared/domain/sms-message.js';
import { campaignWarnings, previewSmsMessage } from '../src/intake/domain/sms-preview.use-cases.js';
import { placeholderLink, templateWarnings } from '../src/shared/domain/sms-text.js';
import {
  campaignOf,
  dispatchOne,
  MemoryCampaigns,
  MemoryMessages,
  MemoryOptOuts,
  MemorySharings,
  noClicks,
  noLinkStates,
  oneProvider,
  ScriptedProvider,
  type DispatchPorts,
} from './fakes/memory-deps.js';

const TURKISH = 'Sayın {{name}}, görüşünüz bizim için çok değerli: {{link}}';
const clock = { now: () => new Date('2026-11-23T10:00:00Z') };

const event = (attributes: Record<string, string>): DispatchEvent => ({
  sharingId: 'sh-1',
  accountId: 'acc',
  campaignId: 'camp',
  recipient: { phone: '905321234567', input: '905321234567', attributes, builtInResponses: {} },
  reminder: 0,
});

/** One recipient dispatched through a campaign of `TURKISH` (or `template`) to a provider with or without the shift table. */
async function dispatchTurkish(o: { transliterate: boolean; shiftTable: boolean; link?: string; template?: string }) {
  const campaigns = new MemoryCampaigns();
  await campaigns.insert(
    campaignOf({ id: 'camp', accountId: 'acc', messageTemplate: o.template ?? TURKISH, transliterate: o.transliterate }),
  );
  const provider = Object.assign(new ScriptedProvider([{ outcome: 'accepted' }]), { turkishShiftTable: o.shiftTable });
  const messages = new MemoryMessages();
  const deps: DispatchPorts = {
    campaigns,
    sharings: new MemorySharings(),
    links: { activateMany: async (items) => items.map(() => 'https://api.example/s/token'), statesOf: noLinkStates },
    shortener: { shortenMany: async (urls) => urls.map(() => o.link ?? 'https://s.example/AbC1234'), countClicked: noClicks },
    messages,
    providers: oneProvider(provider),
    statusEvents: { changedMany: async () => undefined },
    optOuts: new MemoryOptOuts(),
    clock,
  };
  expect(await dispatchOne(deps, event({ name: 'Çağrı Işık' }))).toBe('sent');
  return { record: (await messages.findById('sh-1.905321234567'))!, handed: provider.calls[0]! };
}

describe('what each message costs, recorded by dispatch', () => {
  it('a Turkish text is ucs2 to a provider without the shift table, and so many segments', async () => {
    const { record, handed } = await dispatchTurkish({ transliterate: false, shiftTable: false });
    expect(record.text).toBe('Sayın Çağrı Işık, görüşünüz bizim için çok değerli: https://s.example/AbC1234');
    expect(record).toMatchObject({ encoding: 'ucs2', segments: 2 }); // 77 characters: more than 70
    expect(handed).toMatchObject({ encoding: 'ucs2', segments: 2 });
  });

  it('the same text is gsm7-tr, one segment, to a provider that declares the Turkish single shift table', async () => {
    const { record, handed } = await dispatchTurkish({ transliterate: false, shiftTable: true });
    expect(record).toMatchObject({ encoding: 'gsm7-tr', segments: 1 });
    expect(handed).toMatchObject({ encoding: 'gsm7-tr', segments: 1 });
  });

  it('transliterated, the template and the attributes are GSM 7-bit: gsm7 with or without the shift table', async () => {
    for (const shiftTable of [false, true]) {
      const { record } = await dispatchTurkish({ transliterate: true, shiftTable });
      // ü ö Ç are GSM letters and stay; ı ğ ç İ become i g c I.
      expect(record.text).toBe('Sayin Çagri Isik, görüsünüz bizim icin cok degerli: https://s.example/AbC1234');
      expect(record).toMatchObject({ encoding: 'gsm7', segments: 1 });
    }
  });

  it('never transliterates the link', async () => {
    const { record } = await dispatchTurkish({ transliterate: true, shiftTable: false, link: 'https://kısa.example/Iı1' });
    expect(record.text).toMatch(/: https:\/\/kısa\.example\/Iı1$/);
    expect(record.encoding).toBe('ucs2');
  });

  it('counts a long text in parts of 153 septets', async () => {
    const { record } = await dispatchTurkish({ transliterate: false, shiftTable: false, template: `${'a'.repeat(300)} {{link}}` });
    expect(record).toMatchObject({ encoding: 'gsm7', segments: 3 }); // 300 + 1 + 25 = 326 septets
  });
});

describe('previewing a campaign message', () => {
  const campaign = campaignOf({
    id: 'camp',
    accountId: 'acc',
    messageTemplate: TURKISH,
    reminders: [
      { after: 'P1D', afterMs: 86_400_000, messageTemplate: 'Hatırlatma {{name}}: {{link}}' },
      { after: 'P2D', afterMs: 172_800_000, messageTemplate: null },
    ],
  });
  const setup = async (cost?: { turkishShift?: boolean; placeholderLink?: string }, more: Partial<SmsCampaign> = {}) => {
    const campaigns = new MemoryCampaigns();
    await campaigns.insert({ ...campaign, ...more });
    return { campaigns, settings: { defaultRegion: 'TR', maxPhones: 100, defaultSendWindow: null, cost } };
  };
  const link = placeholderLink('https://go.example', 7);

  it('renders the template with the attributes and a placeholder link as long as a real one, and costs it', async () => {
    const deps = await setup({ placeholderLink: link });
    const p = await previewSmsMessage(deps, { accountId: 'acc', campaignId: 'camp', customAttributes: { name: 'Ayşe' }, reminder: 0 });
    expect(link).toBe('https://go.example/xxxxxxx');
    expect(p).toEqual({
      text: `Sayın Ayşe, görüşünüz bizim için çok değerli: ${link}`,
      encoding: 'ucs2',
      segments: 2, // 72 characters: more than 70
      characters: 72,
    });
    const shifted = await previewSmsMessage(await setup({ placeholderLink: link, turkishShift: true }), {
      accountId: 'acc',
      campaignId: 'camp',
      customAttributes: { name: 'Ayşe' },
      reminder: 0,
    });
    expect(shifted).toMatchObject({ encoding: 'gsm7-tr', segments: 1 });
  });

  it("a reminder's own template, else the campaign's; transliterated when the campaign says so", async () => {
    const deps = await setup({ placeholderLink: link }, { transliterate: true });
    const q = { accountId: 'acc', campaignId: 'camp', customAttributes: { name: 'Ayşe' } };
    expect(await previewSmsMessage(deps, { ...q, reminder: 1 })).toMatchObject({ text: `Hatirlatma Ayse: ${link}`, encoding: 'gsm7' });
    expect((await previewSmsMessage(deps, { ...q, reminder: 2 })).text).toBe(`Sayin Ayse, görüsünüz bizim icin cok degerli: ${link}`);
    await expect(previewSmsMessage(deps, { ...q, reminder: 3 })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { reminder: 'the campaign has 2 reminders' },
    });
    await expect(previewSmsMessage(deps, { ...q, reminder: 4 })).rejects.toMatchObject({ fields: { reminder: 'must be 0-3' } });
  });

  it("another account's campaign is not found", async () => {
    const deps = await setup();
    await expect(
      previewSmsMessage(deps, { accountId: 'other', campaignId: 'camp', customAttributes: {}, reminder: 0 }),
    ).rejects.toMatchObject({ kind: 'not_found', fields: { campaign_id: 'camp' } });
  });

  it('refuses the attribute names a sharing refuses (a leading $, a dot), naming the attribute', async () => {
    const deps = await setup();
    for (const name of ['$x', 'a.b']) {
      await expect(
        previewSmsMessage(deps, { accountId: 'acc', campaignId: 'camp', customAttributes: { [name]: '1' }, reminder: 0 }),
      ).rejects.toMatchObject({ kind: 'invalid', fields: { [`custom_attributes.${name}`]: expect.stringMatching(/^name must be/) } });
    }
  });
});

describe('template warnings', () => {
  const opts = { turkishShift: false, placeholderLink: placeholderLink('http://127.0.0.1:8081', 7), transliterate: false };

  it('none for a short GSM template', () => {
    expect(templateWarnings('Your opinion matters: {{link}}', opts)).toEqual([]);
  });

  it('names the first character that makes the SMS ucs2', () => {
    expect(templateWarnings('Nasılsınız? 😀 {{link}}', opts)).toEqual([
      'message_template: "ı" (U+0131) is not in the GSM 7-bit alphabet, so every SMS is sent as ucs2 (70 characters a segment instead of 160)',
    ]);
    // With the shift table ı is fine; the emoji is not.
    expect(templateWarnings('Nasılsınız? 😀 {{link}}', { ...opts, turkishShift: true })[0]).toMatch(/^message_template: "😀" \(U\+1F600\)/);
    // An invisible one is named by its code point.
    expect(templateWarnings('Hi\u00A0there {{link}}', opts)[0]).toMatch(/^message_template: U\+00A0 is not/);
    expect(templateWarnings('Nasılsınız? {{link}}', { ...opts, transliterate: true })).toEqual([]);
  });

  it('more than two segments', () => {
    expect(templateWarnings(`${'a'.repeat(300)} {{link}}`, opts)).toEqual([
      'message_template: takes 3 segments (gsm7) before any attribute; each is billed as one SMS',
    ]);
    expect(templateWarnings(`${'ş'.repeat(150)} {{link}}`, opts)).toHaveLength(2);
  });

  it("a campaign's reminders are named by their field", () => {
    const campaign = campaignOf({
      id: 'c',
      accountId: 'a',
      messageTemplate: '{{link}}',
      reminders: [
        { after: 'P1D', afterMs: 1, messageTemplate: null },
        { after: 'P2D', afterMs: 2, messageTemplate: '€uro ✓ {{link}}' },
      ],
    });
    const settings = { defaultRegion: 'TR', maxPhones: 1, defaultSendWindow: null };
    expect(campaignWarnings({ settings }, campaign)).toEqual([expect.stringMatching(/^reminders\[1\]\.message_template: "✓" \(U\+2713\)/)]);
  });
});

describe('where a sharing stands', () => {
  const now = clock.now();
  const sharingOf = (more: Partial<SmsSharing>): SmsSharing => ({
    id: 'sh-1',
    accountId: 'acc',
    campaignId: 'camp',
    createdAt: now,
    accepted: 9,
    duplicates: 0,
    rejected: [],
    scheduledFor: null,
    cancelledAt: null,
    ...more,
  });
  const record = (phone: string, status: SmsMessage['status'], more: Partial<SmsMessage> = {}): SmsMessage => ({
    id: `sh-1.${phone}${more.reminder ? `.r${more.reminder}` : ''}`,
    accountId: 'acc',
    sharingId: 'sh-1',
    campaignId: 'camp',
    phone,
    text: 'x',
    provider: 'scripted',
    status,
    attempts: 1,
    providerMessageId: null,
    error: null,
    createdAt: now,
    updatedAt: now,
    ...more,
  });

  async function setup(sharing: SmsSharing, records: SmsMessage[], phones: string[]) {
    const sharings = new MemorySharings();
    const writer = sharings.writeRecipients(sharing.id);
    await writer.add(phones.map((phone) => ({ phone, input: phone, attributes: {}, builtInResponses: {} })));
    await writer.complete(sharing);
    const messages = new MemoryMessages();
    for (const r of records) messages.items.set(r.id, r);
    const campaigns = new MemoryCampaigns();
    await campaigns.insert(campaignOf({ id: 'camp', accountId: 'acc', channelId: 'ch-1' }));
    const asked = { codes: [] as string[], phones: [] as string[] };
    return {
      asked,
      deps: {
        sharings,
        messages,
        campaigns,
        clock,
        links: {
          activateMany: async () => [],
          statesOf: async (_a: string, channelId: string, ps: string[]) => {
            asked.phones = ps;
            return ps.map((p) => (channelId === 'ch-1' && p.endsWith('1') ? ('answered' as const) : ('active' as const)));
          },
        },
        shortener: {
          shortenMany: async () => [],
          countClicked: async (_a: string, codes: string[]) => ((asked.codes = codes), 2),
        },
      },
    };
  }

  it('counts recipients by status, sums every segment (reminders too) and asks the funnel for the linked ones', async () => {
    const linked = (code: string) => ({ link: `https://s.example/${code}`, encoding: 'gsm7' as const, segments: 2 });
    const { deps, asked } = await setup(
      sharingOf({}),
      [
        record('905320000001', 'delivered', linked('Code001')),
        record('905320000001', 'sent', { reminder: 1, segments: 1, encoding: 'gsm7' }),
        record('905320000002', 'sent', linked('Code002')),
        record('905320000003', 'failed', { error: 'rejected' }),
        record('905320000004', 'retryable'),
        record('905320000005', 'unknown', linked('Code005')),
        record('905320000006', 'opted_out', { text: '' }),
        record('905320000007', 'cancelled', { text: '' }),
        record('905320000008', 'sending', linked('Code008')),
      ],
      [
        '905320000001',
        '905320000002',
        '905320000003',
        '905320000004',
        '905320000005',
        '905320000006',
        '905320000007',
        '905320000008',
        '905320000009',
      ],
    );
    const s = await getSharingStatus(deps, 'acc', 'sh-1');
    expect(s.counts).toEqual({
      scheduled: 0,
      queued: 1,
      sending: 1,
      sent: 1,
      delivered: 1,
      failed: 1,
      opted_out: 1,
      cancelled: 1,
      other: 2,
    });
    expect(s.segments).toBe(2 * 4 + 1);
    expect(s.recipients[0]).toEqual({
      phone: '905320000001',
      status: 'delivered',
      error: null,
      updatedAt: now,
      encoding: 'gsm7',
      segments: 2,
      reminders: [{ reminder: 1, status: 'sent', segments: 1, updatedAt: now }],
    });
    expect(s.recipients.at(-1)).toMatchObject({ phone: '905320000009', status: 'queued', encoding: null, segments: 0, reminders: [] });
    expect(asked.codes).toEqual(['Code001', 'Code002', 'Code005', 'Code008']);
    expect(asked.phones).toEqual(['905320000001', '905320000002', '905320000005', '905320000008']);
    expect(s.funnel).toEqual({ clicked: 2, answered: 1 });
  });

  it('a recipient without a record is scheduled while the sharing is due later and not cancelled', async () => {
    const later = new Date(now.getTime() + 3_600_000);
    const phones = ['905320000001'];
    expect(
      (await getSharingStatus((await setup(sharingOf({ scheduledFor: later }), [], phones)).deps, 'acc', 'sh-1')).counts,
    ).toMatchObject({
      scheduled: 1,
      queued: 0,
    });
    const cancelled = sharingOf({ scheduledFor: later, cancelledAt: now });
    expect((await getSharingStatus((await setup(cancelled, [], phones)).deps, 'acc', 'sh-1')).recipients[0]!.status).toBe('queued');
    const due = sharingOf({ scheduledFor: new Date(now.getTime() - 1) });
    expect((await getSharingStatus((await setup(due, [], phones)).deps, 'acc', 'sh-1')).recipients[0]!.status).toBe('queued');
    // Nothing linked: the peers are not asked.
    const { deps, asked } = await setup(sharingOf({}), [], phones);
    expect((await getSharingStatus(deps, 'acc', 'sh-1')).funnel).toEqual({ clicked: 0, answered: 0 });
    expect(asked).toEqual({ codes: [], phones: [] });
  });

  it("another account's sharing is not found", async () => {
    const { deps } = await setup(sharingOf({}), [], []);
    await expect(getSharingStatus(deps, 'other', 'sh-1')).rejects.toMatchObject({ kind: 'not_found', fields: { sharing_id: 'sh-1' } });
  });
});

describe("an account provider's turkish_shift_table", () => {
  const base = { url: 'https://sms.example/send', sender: 'ACME', query: { to: '{to}', text: '{text}' } };

  it('is a boolean, false unless set', () => {
    expect(parseAccountProviderConfig(JSON.stringify(base)).turkish_shift_table).toBe(false);
    expect(parseAccountProviderConfig(JSON.stringify({ ...base, turkish_shift_table: true })).turkish_shift_table).toBe(true);
    expect(() => parseAccountProviderConfig(JSON.stringify({ ...base, turkish_shift_table: 'yes' }))).toThrow(
      expect.objectContaining({ fields: { turkish_shift_table: expect.any(String) } }),
    );
  });
});
