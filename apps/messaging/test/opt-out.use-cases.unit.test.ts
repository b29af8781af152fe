import { AppError } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { describe, expect, it } from 'vitest';
import { dispatchSms } from '../src/dispatch/domain/dispatch.use-cases.js';
import { isOptOutRequest } from '../src/opt-outs/domain/opt-out.js';
import { addOptOuts, listOptOuts, receiveInboundSms, removeOptOut } from '../src/opt-outs/domain/opt-out.use-cases.js';
import type { OutgoingSms, ProviderResult, SmsProvider } from '../src/providers/ports.js';
import type { DispatchEvent } from '../src/shared/domain/sharing.js';
import type { SmsMessage } from '../src/shared/domain/sms-message.js';
import { createSharing } from '../src/intake/domain/sharing.use-cases.js';
import {
  campaignOf,
  MemoryCampaigns,
  MemoryDispatch,
  MemoryJobs,
  MemoryMessages,
  MemoryOptOuts,
  MemorySharings,
  noClicks,
  noLinkStates,
  oneProvider,
  ScriptedProvider,
  textedPhonesOf,
} from './fakes/memory-deps.js';

const CAMPAIGN = '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a';
const settings = { defaultRegion: 'TR', maxPhones: 10_000 } as never;
const logger = createLogger('opt-out-test', 'silent');

function ports(now = new Date('2026-11-23T10:00:00Z')) {
  let at = now.getTime();
  return { optOuts: new MemoryOptOuts(), clock: { now: () => new Date(at++) }, settings };
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('adding phones to the suppression list', () => {
  it('normalizes them as sharings do, counts a repeat once and a phone on the list as already', async () => {
    const deps = ports();
    expect(
      await addOptOuts(deps, { accountId: 'acc', phoneNumbers: ['+90 532 123 45 67', '05321234567', '5321234568'], source: 'api' }),
    ).toEqual({
      added: 2,
      already: 0,
    });
    expect(await addOptOuts(deps, { accountId: 'acc', phoneNumbers: ['0532 123 45 68', '+905321234569'], source: 'api' })).toEqual({
      added: 1,
      already: 1,
    });
    expect(deps.optOuts.items.map((o) => o.phone)).toEqual(['905321234567', '905321234568', '905321234569']);
  });

  it('is all or nothing: every invalid phone is named as written, and none is stored', async () => {
    const deps = ports();
    const err = await failure(addOptOuts(deps, { accountId: 'acc', phoneNumbers: ['+905321234567', '12', 'abc'], source: 'api' }));
    expect(err.kind).toBe('invalid');
    expect(err.fields).toEqual({ 'phone_numbers.12': 'too_short', 'phone_numbers.abc': 'not_a_number' });
    expect(deps.optOuts.items).toEqual([]);
  });

  it('takes at most 1,000 phones, at least one, and a known source', async () => {
    const deps = ports();
    const many = Array.from({ length: 1_001 }, (_, i) => `+9053212${String(i).padStart(5, '0')}`);
    expect((await failure(addOptOuts(deps, { accountId: 'acc', phoneNumbers: many, source: 'api' }))).fields).toHaveProperty(
      'phone_numbers',
    );
    expect((await failure(addOptOuts(deps, { accountId: 'acc', phoneNumbers: [], source: 'api' }))).fields).toHaveProperty('phone_numbers');
    expect((await failure(addOptOuts(deps, { accountId: 'acc', phoneNumbers: ['+905321234567'], source: 'sms' }))).fields).toHaveProperty(
      'source',
    );
    expect(await addOptOuts(deps, { accountId: 'acc', phoneNumbers: many.slice(0, 1_000), source: 'api' })).toEqual({
      added: 1_000,
      already: 0,
    });
  });
});

describe('listing and removing', () => {
  it('lists the account’s own entries newest first, page by page, and one phone in any notation', async () => {
    const deps = ports();
    for (const p of ['+905321234567', '+905321234568', '+905321234569'])
      await addOptOuts(deps, { accountId: 'acc', phoneNumbers: [p], source: 'api' });
    await addOptOuts(deps, { accountId: 'other', phoneNumbers: ['+905321234570'], source: 'keyword' });
    const first = await listOptOuts(deps, { accountId: 'acc', pageSize: 2 });
    expect(first.items.map((o) => o.phone)).toEqual(['905321234569', '905321234568']);
    const second = await listOptOuts(deps, { accountId: 'acc', pageSize: 2, pageToken: first.nextPageToken });
    expect(second).toMatchObject({ items: [{ phone: '905321234567', source: 'api' }], nextPageToken: '' });
    expect((await listOptOuts(deps, { accountId: 'acc', phone: '0532 123 45 68' })).items.map((o) => o.phone)).toEqual(['905321234568']);
    expect((await listOptOuts(deps, { accountId: 'acc', phone: '+905321234570' })).items).toEqual([]);
    expect((await failure(listOptOuts(deps, { accountId: 'acc', phone: '12' }))).fields).toEqual({ phone: 'too_short' });
  });

  it('removes a phone written any way; an absent one is 404 naming the phone as written', async () => {
    const deps = ports();
    await addOptOuts(deps, { accountId: 'acc', phoneNumbers: ['+905321234567'], source: 'api' });
    const foreign = await failure(removeOptOut(deps, { accountId: 'other', phone: '+905321234567' }));
    expect(foreign).toMatchObject({ kind: 'not_found', fields: { phone: '+905321234567' } });
    await removeOptOut(deps, { accountId: 'acc', phone: '0532 123 45 67' });
    expect(deps.optOuts.items).toEqual([]);
    expect((await failure(removeOptOut(deps, { accountId: 'acc', phone: '0532 123 45 67' }))).kind).toBe('not_found');
  });
});

describe('the opt-out keyword of an inbound SMS', () => {
  const keywords = ['STOP', 'IPTAL', 'RET', 'DUR'];
  it('is the first word, without case, punctuation or the Turkish dotted/dotless i distinction', () => {
    for (const text of ['STOP', 'stop', ' Stop please', 'İPTAL', 'iptal', 'ıptal', 'IPTAL.', 'I\u0307ptal', 'ret', 'DUR!']) {
      expect(isOptOutRequest(text, keywords), text).toBe(true);
    }
    for (const text of ['', 'STOPP', 'please stop', 'iptalet', 'DURUM']) expect(isOptOutRequest(text, keywords), text).toBe(false);
    expect(isOptOutRequest('ıptal', ['İPTAL'])).toBe(true);
  });

  it('puts the sender on the list of every account that texted it, and confirms through the deployment provider', async () => {
    const deps = ports();
    const messages = new MemoryMessages();
    const texted = (accountId: string, phone: string) => messages.recordMany([{ ...sentRecord(accountId, phone) }]);
    await texted('acc-1', '905321234567');
    await texted('acc-2', '905321234567');
    await texted('acc-3', '905321234599');
    const provider = new ScriptedProvider([{ outcome: 'accepted' }]);
    const rules = { keywords, reply: 'Artık SMS almayacaksınız.', provider };
    const all = { ...deps, textedPhones: textedPhonesOf(messages), logger };

    expect(await receiveInboundSms(all, rules, { from: '905321234567', text: 'İptal' })).toEqual({
      optedOut: true,
      accounts: ['acc-1', 'acc-2'],
    });
    expect(deps.optOuts.items.map((o) => [o.accountId, o.phone, o.source])).toEqual([
      ['acc-1', '905321234567', 'keyword'],
      ['acc-2', '905321234567', 'keyword'],
    ]);
    expect(provider.calls).toMatchObject([{ to: '905321234567', text: 'Artık SMS almayacaksınız.' }]);

    // Not a keyword: nothing; a stranger's STOP: nothing to add, no reply.
    expect(await receiveInboundSms(all, rules, { from: '905321234599', text: 'Teşekkürler' })).toEqual({ optedOut: false, accounts: [] });
    expect(await receiveInboundSms(all, rules, { from: '905321230000', text: 'STOP' })).toEqual({ optedOut: true, accounts: [] });
    expect(provider.calls).toHaveLength(1);
    // No reply configured: none sent.
    await receiveInboundSms(all, { ...rules, reply: '' }, { from: '905321234599', text: 'stop' });
    expect(provider.calls).toHaveLength(1);
    expect(deps.optOuts.items).toHaveLength(3);
  });
});

describe('a sharing and the suppression list', () => {
  it('rejects the account’s opted-out phones as opted_out, with one query per slice of 1,000', async () => {
    const campaigns = new MemoryCampaigns();
    await campaigns.insert(campaignOf({ id: CAMPAIGN, accountId: 'acc' }));
    const deps = {
      ...ports(),
      campaigns,
      sharings: new MemorySharings(),
      dispatch: new MemoryDispatch(),
      jobs: new MemoryJobs(),
      newId: () => 'sh-1',
    };
    await addOptOuts(deps, { accountId: 'acc', phoneNumbers: ['+905321234567'], source: 'api' });
    await addOptOuts(deps, { accountId: 'other', phoneNumbers: ['+905321234568'], source: 'api' });
    deps.optOuts.queries = 0;
    const phones = ['0532 123 45 67', '+905321234568', ...Array.from({ length: 1_500 }, (_, i) => `+9053300${String(i).padStart(5, '0')}`)];
    const s = await createSharing(deps, {
      accountId: 'acc',
      campaignId: CAMPAIGN,
      phoneNumbers: phones,
      customAttributes: {},
      builtInResponses: {},
    });
    expect(s).toMatchObject({ accepted: 1_501, rejected: 1, rejectedPhones: [{ phone: '0532 123 45 67', reason: 'opted_out' }] });
    expect(deps.dispatch.events.map((e) => e.recipient.phone)).not.toContain('905321234567');
    expect(deps.dispatch.events).toHaveLength(1_501);
    expect(deps.optOuts.queries).toBe(2);
  });
});

describe('dispatching to an opted-out phone', () => {
  async function setup(provider: SmsProvider) {
    const campaigns = new MemoryCampaigns();
    await campaigns.insert(campaignOf({ id: 'camp', accountId: 'acc' }));
    await campaigns.insert(campaignOf({ id: 'camp-b', accountId: 'acc-b' }));
    const statuses: SmsMessage[] = [];
    const activated: string[] = [];
    const p = ports();
    const deps = {
      ...p,
      campaigns,
      links: {
        activateMany: async (items: { phone: string }[]) => items.map((i) => (activated.push(i.phone), `https://x/${i.phone}`)),
        statesOf: noLinkStates,
      },
      shortener: { shortenMany: async (urls: string[]) => urls, countClicked: noClicks },
      messages: new MemoryMessages(),
      sharings: new MemorySharings(),
      providers: oneProvider(provider),
      statusEvents: { changedMany: async (ms: SmsMessage[]) => void statuses.push(...ms) },
    };
    return { deps, statuses, activated };
  }
  const event = (phone: string, over: Partial<DispatchEvent> = {}): DispatchEvent => ({
    sharingId: 'sh',
    accountId: 'acc',
    campaignId: 'camp',
    recipient: { phone, input: phone, attributes: {}, builtInResponses: {} },
    reminder: 0,
    ...over,
  });

  for (const [name, provider] of [
    ['a provider claimed before', () => new ScriptedProvider([{ outcome: 'accepted' }])],
    ['an idempotent bulk provider', () => new BulkProvider()],
  ] as const) {
    it(`records opted_out, publishes it, and hands it to no provider (${name}); others go, one query per account`, async () => {
      const prov = provider();
      const { deps, statuses, activated } = await setup(prov);
      await addOptOuts(deps, { accountId: 'acc', phoneNumbers: ['+905321234567'], source: 'survey_page' });
      deps.optOuts.queries = 0;
      const events = [
        event('905321234567'),
        event('905321234568'),
        event('905321234567', { sharingId: 'sh', reminder: 1 } as Partial<DispatchEvent>),
        // Another account's list does not hold it.
        event('905321234567', { accountId: 'acc-b', campaignId: 'camp-b', sharingId: 'sh-b' }),
      ];
      const results = await dispatchSms(deps, events);
      expect(results[0]).toBe('opted_out');
      expect(results[1]).toBe('sent');
      expect(results[3]).toBe('sent');
      expect(deps.optOuts.queries).toBe(2);
      expect(sentTo(prov).sort()).toEqual(['905321234567', '905321234568']);
      expect(sentTo(prov).filter((p) => p === '905321234567')).toHaveLength(1);
      expect(activated).not.toContain(undefined);
      const record = (await deps.messages.findById('sh.905321234567'))!;
      expect(record).toMatchObject({ status: 'opted_out', provider: '', text: '', accountId: 'acc' });
      expect(statuses.filter((m) => m.status === 'opted_out').map((m) => m.id)).toContain('sh.905321234567');
      // A redelivery changes nothing and publishes nothing more.
      const before = statuses.length;
      expect(await dispatchSms(deps, [event('905321234567')])).toEqual(['already_handled']);
      expect(statuses).toHaveLength(before);
    });
  }

  it('a reminder to a phone opted out since its first message is not sent either', async () => {
    const prov = new ScriptedProvider([{ outcome: 'accepted' }]);
    const { deps } = await setup(prov);
    expect(await dispatchSms(deps, [event('905321234567')])).toEqual(['sent']);
    await addOptOuts(deps, { accountId: 'acc', phoneNumbers: ['905321234567'], source: 'keyword' });
    const [result] = await dispatchSms(deps, [event('905321234567', { reminder: 1 } as Partial<DispatchEvent>)]);
    expect(result === 'opted_out' || result === 'already_handled').toBe(true);
    expect(prov.calls).toHaveLength(1);
  });
});

function sentRecord(accountId: string, phone: string): SmsMessage {
  const at = new Date('2026-11-20T10:00:00Z');
  return {
    id: `sh-${accountId}.${phone}`,
    accountId,
    sharingId: `sh-${accountId}`,
    campaignId: 'c',
    phone,
    text: 't',
    provider: 'outbox',
    status: 'sent',
    attempts: 1,
    providerMessageId: null,
    error: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** An idempotent provider with a bulk send (as the recording one): no claim before the hand-over. */
class BulkProvider implements SmsProvider {
  readonly name = 'bulk';
  readonly idempotent = true;
  readonly calls: OutgoingSms[] = [];
  async send(sms: OutgoingSms): Promise<ProviderResult> {
    return (await this.sendMany([sms]))[0]!;
  }
  async sendMany(sms: OutgoingSms[]): Promise<ProviderResult[]> {
    this.calls.push(...sms);
    return sms.map(() => ({ outcome: 'accepted' }));
  }
}

const sentTo = (p: ScriptedProvider | BulkProvider) => p.calls.map((c) => c.to);
