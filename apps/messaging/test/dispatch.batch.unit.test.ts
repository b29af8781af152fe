import { describe, expect, it } from 'vitest';
import { createCampaign } from '../src/campaigns/domain/campaign.use-cases.js';
import { dispatchSms } from '../src/dispatch/domain/dispatch.use-cases.js';
import { RetriableSendError, UndeliverableEventError } from '../src/dispatch/domain/dispatch-results.js';
import type { OutgoingSms, ProviderResult } from '../src/providers/ports.js';
import type { LinkActivation } from '../src/shared/ports.js';
import type { DispatchEvent } from '../src/shared/domain/sharing.js';
import type { SmsMessage } from '../src/shared/domain/sms-message.js';
import {
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

/** The survey and shortener peers: calls counted, one phone can be made to fail. */
function peers(failPhone?: string) {
  const calls = { activateMany: 0, shortenMany: 0 };
  const url = (a: LinkActivation) => `https://api.example/s/token-${a.phone}`;
  return {
    calls,
    channels: { createSmsChannel: async () => 'channel-1' },
    links: {
      activateMany: async (items: LinkActivation[]) => (
        calls.activateMany++,
        items.map((a) => (a.phone === failPhone ? new Error('INVALID_ARGUMENT: customer.phone_number') : url(a)))
      ),
      statesOf: noLinkStates,
    },
    shortener: {
      shortenMany: async (us: string[]) => (calls.shortenMany++, us.map((u) => `https://s.example/${u.split('-').pop()}`)),
      countClicked: noClicks,
    },
  };
}

async function setup(provider = new ScriptedProvider([{ outcome: 'accepted' }]), failPhone?: string) {
  const p = peers(failPhone);
  const campaigns = new MemoryCampaigns();
  const statuses: SmsMessage[] = [];
  const clock = { now: () => new Date('2026-11-24T10:00:00Z') };
  await createCampaign(
    { campaigns, channels: p.channels, clock, newId: () => 'camp-1' },
    {
      accountId: 'acc',
      name: 'Kasım',
      nodeId: 'node',
      nodeName: 'Şube',
      flowId: 'flow',
      messageTemplate: 'Sayın {{name}}, {{link}}',
      linkTtlDays: 0,
    },
  );
  const publishes: number[] = [];
  const deps: DispatchPorts = {
    campaigns,
    links: p.links,
    shortener: p.shortener,
    messages: new MemoryMessages(),
    providers: oneProvider(provider),
    optOuts: new MemoryOptOuts(),
    sharings: new MemorySharings(),
    statusEvents: {
      changedMany: async (ms) => void (publishes.push(ms.length), statuses.push(...ms.map((m) => ({ ...m })))),
    },
    clock,
  };
  return { deps, calls: p.calls, statuses, publishes, provider };
}

const event = (phone: string, over: Partial<DispatchEvent> = {}): DispatchEvent => ({
  sharingId: 'sh-1',
  accountId: 'acc',
  campaignId: 'camp-1',
  recipient: { phone, input: phone, attributes: { name: `N${phone.slice(-2)}` }, builtInResponses: {} },
  reminder: 0,
  ...over,
});
const phones = (n: number) => Array.from({ length: n }, (_, i) => `90532000${String(i).padStart(4, '0')}`);

describe('dispatching a batch of recipients', () => {
  it('sends each fresh recipient once, with one activation call, one shortening call and one status publish for the lot', async () => {
    const { deps, calls, statuses, publishes, provider } = await setup();
    const events = phones(50).map((p) => event(p));
    const outcomes = await dispatchSms(deps, events);
    expect(outcomes).toEqual(events.map(() => 'sent'));
    expect(calls).toEqual({ activateMany: 1, shortenMany: 1 });
    expect(provider.calls.map((c) => c.to).sort()).toEqual(phones(50));
    expect(provider.calls[0]!.text).toBe(`Sayın N00, https://s.example/${phones(1)[0]}`);
    expect(publishes).toEqual([50]);
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(['sent']));
    expect((await deps.messages.findById(`sh-1.${phones(1)[0]}`))?.status).toBe('sent');
  });

  it('a redelivered batch sends nothing again, and each event alone (a batch of one) finds its message handled', async () => {
    const { deps, provider } = await setup();
    const events = phones(10).map((p) => event(p));
    await dispatchSms(deps, events);
    expect(await dispatchSms(deps, events)).toEqual(events.map(() => 'already_handled'));
    for (const e of events) expect(await dispatchSms(deps, [e])).toEqual(['already_handled']);
    expect(provider.calls).toHaveLength(10);
  });

  it('answers an error for what it cannot finish, a repeat within the batch as its first, and the rest still goes', async () => {
    const [good, bad, twice] = phones(3);
    const { deps, provider } = await setup(new ScriptedProvider([{ outcome: 'accepted' }]), bad);
    const events = [event(good!), event(bad!), event(twice!), event(twice!), event(good!, { campaignId: 'gone', sharingId: 'sh-2' })];
    const outcomes = await dispatchSms(deps, events);
    // The failed activation and the vanished campaign: their errors, for a retry or a dead letter.
    expect(outcomes).toEqual(['sent', expect.any(Error), 'sent', 'already_handled', expect.any(UndeliverableEventError)]);
    expect((outcomes[1] as Error).message).toBe('INVALID_ARGUMENT: customer.phone_number');
    expect(provider.calls.map((c) => c.to)).toEqual([good, twice]);
    expect(await deps.messages.findById(`sh-1.${bad}`)).toBeNull();
  });

  it('maps each provider answer to the record and the outcome; a retriable refusal is left for a retry with backoff', async () => {
    const results: (ProviderResult | Error)[] = [
      { outcome: 'accepted', providerMessageId: 'p-1' },
      { outcome: 'rejected', retriable: true, reason: 'HTTP 503' },
      { outcome: 'rejected', retriable: false, reason: 'HTTP 400' },
      new Error('socket hang up'),
    ];
    // One hand-over at a time would make the order of answers the order of calls; a scripted
    // provider answers by call order, so give each phone its own answer instead.
    const byPhone = new Map(phones(4).map((p, i) => [p, results[i]!]));
    const provider = new ScriptedProvider([]);
    provider.send = async (sms) => {
      provider.calls.push(sms);
      const r = byPhone.get(sms.to)!;
      if (r instanceof Error) throw r;
      return r;
    };
    const { deps } = await setup(provider);
    const events = phones(4).map((p) => event(p));
    expect(await dispatchSms(deps, events)).toEqual(['sent', expect.any(RetriableSendError), 'failed', 'unknown']);
    const stored = await Promise.all(phones(4).map((p) => deps.messages.findById(`sh-1.${p}`)));
    expect(stored.map((m) => [m?.status, m?.providerMessageId ?? m?.error])).toEqual([
      ['sent', 'p-1'],
      ['retryable', 'HTTP 503'],
      ['failed', 'HTTP 400'],
      ['unknown', 'socket hang up'],
    ]);
    // The retry of the refused one (alone) sends it once more; nothing else is sent again.
    byPhone.set(phones(4)[1]!, { outcome: 'accepted' });
    for (const e of events) await dispatchSms(deps, [e]);
    expect(provider.calls.map((c) => c.to)).toEqual([...phones(4), phones(4)[1]]);
  });

  it('uses a provider bulk send when it has one', async () => {
    const batches: number[] = [];
    const provider = Object.assign(new ScriptedProvider([{ outcome: 'accepted' }], true), {
      sendMany: async (sms: OutgoingSms[]): Promise<ProviderResult[]> => (
        batches.push(sms.length),
        sms.map(() => ({ outcome: 'accepted' }))
      ),
    });
    const { deps } = await setup(provider);
    expect(
      await dispatchSms(
        deps,
        phones(30).map((p) => event(p)),
      ),
    ).toEqual(phones(30).map(() => 'sent'));
    expect(batches).toEqual([30]);
    expect(provider.calls).toHaveLength(0);
  });

  it('a claim taken by a concurrent consumer between the read and the claim is not sent here', async () => {
    const { deps, provider } = await setup();
    const [mine, theirs] = phones(2);
    const claimMany = deps.messages.claimMany.bind(deps.messages);
    deps.messages.claimMany = async (msgs) => {
      await deps.messages.claim({ ...msgs.find((m) => m.phone === theirs)!, text: 'theirs' });
      return claimMany(msgs);
    };
    expect(await dispatchSms(deps, [event(mine!), event(theirs!)])).toEqual(['sent', 'already_handled']);
    expect(provider.calls.map((c) => c.to)).toEqual([mine]);
  });

  it('a crashed claim ("sending") is resumed for an idempotent provider, and never re-sent for another', async () => {
    for (const idempotent of [true, false]) {
      const provider = new ScriptedProvider([{ outcome: 'accepted' }], idempotent);
      const { deps } = await setup(provider);
      const [p] = phones(1);
      await deps.messages.claim({
        id: `sh-1.${p}`,
        accountId: 'acc',
        sharingId: 'sh-1',
        campaignId: 'camp-1',
        phone: p!,
        text: 't',
        provider: 'scripted',
        createdAt: new Date(),
      });
      expect(await dispatchSms(deps, [event(p!), event(p!)])).toEqual(
        idempotent ? ['sent', 'already_handled'] : ['already_handled', 'already_handled'],
      );
      expect(provider.calls).toHaveLength(idempotent ? 1 : 0);
      expect(await deps.messages.findById(`sh-1.${p}`)).toMatchObject(
        idempotent ? { status: 'sent', attempts: 2 } : { status: 'sending', attempts: 1 },
      );
    }
  });
});

describe('dispatching a batch to an idempotent provider with a bulk send (the recording provider)', () => {
  const recording = (behaviour: (sms: OutgoingSms[]) => Promise<ProviderResult[]>) => {
    const handed: OutgoingSms[][] = [];
    const provider = Object.assign(new ScriptedProvider([{ outcome: 'accepted' }], true), {
      sendMany: async (sms: OutgoingSms[]) => (handed.push(sms), behaviour(sms)),
    });
    return { provider, handed };
  };

  it('hands the lot over first and stores the records with their outcome in one write, without claims', async () => {
    const { provider, handed } = recording(async (sms) => sms.map((m) => ({ outcome: 'accepted', providerMessageId: `p-${m.to}` })));
    const { deps, statuses, publishes } = await setup(provider);
    let claims = 0;
    deps.messages.claimMany = async () => (claims++, []);
    const events = phones(20).map((p) => event(p));
    expect(await dispatchSms(deps, events)).toEqual(events.map(() => 'sent'));
    expect(claims).toBe(0);
    expect(handed.map((h) => h.length)).toEqual([20]);
    expect(await deps.messages.findById(`sh-1.${phones(1)[0]}`)).toMatchObject({
      status: 'sent',
      attempts: 1,
      providerMessageId: `p-${phones(1)[0]}`,
    });
    expect(publishes).toEqual([20]);
    expect(statuses.every((m) => m.status === 'sent')).toBe(true);
  });

  it('a record another consumer stored meanwhile stays as it was and is not reported again', async () => {
    const [mine, theirs] = phones(2);
    const { provider } = recording(async (sms) => sms.map(() => ({ outcome: 'accepted' })));
    const { deps, statuses } = await setup(provider);
    const recordMany = deps.messages.recordMany.bind(deps.messages);
    deps.messages.recordMany = async (msgs) => {
      await deps.messages.claim({ ...msgs.find((m) => m.phone === theirs)!, text: 'theirs' });
      return recordMany(msgs);
    };
    expect(await dispatchSms(deps, [event(mine!), event(theirs!)])).toEqual(['sent', 'already_handled']);
    expect((await deps.messages.findById(`sh-1.${theirs}`))?.text).toBe('theirs');
    expect(statuses.map((m) => m.phone)).toEqual([mine]);
  });

  it('a failed hand-over stores nothing and answers its error, so the retry hands the messages over again', async () => {
    let fail = true;
    const { provider, handed } = recording(async (sms) =>
      fail ? ((fail = false), Promise.reject(new Error('database gone'))) : sms.map((): ProviderResult => ({ outcome: 'accepted' })),
    );
    const { deps } = await setup(provider);
    const [failed] = await dispatchSms(deps, [event(phones(1)[0]!)]);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/database gone/);
    expect(await deps.messages.findById(`sh-1.${phones(1)[0]}`)).toBeNull();
    expect(await dispatchSms(deps, [event(phones(1)[0]!)])).toEqual(['sent']);
    expect(handed).toHaveLength(2);
  });
});
