import { describe, expect, it, vi } from 'vitest';
import { dispatchSms } from '../src/dispatch/domain/dispatch.use-cases.js';
import type { ProviderResult } from '../src/providers/ports.js';
import type { MessagingSettings } from '../src/shared/ports.js';
import { runDueSteps } from '../src/scheduling/domain/scheduled-steps.use-cases.js';
import { cancelSharing } from '../src/intake/domain/sharing-cancel.use-cases.js';
import {
  newSweepState,
  QUIET_MS,
  raiseCompletedSharings,
  raiseIfComplete,
  RECOUNT_MS,
} from '../src/status/domain/sharing-completion.use-cases.js';
import type { CampaignReminder, DispatchEvent, SmsCampaign } from '../src/shared/domain/sharing.js';
import { createSharing } from '../src/intake/domain/sharing.use-cases.js';
import {
  campaignOf,
  MemoryCampaigns,
  MemoryCompletions,
  MemoryDispatch,
  MemoryJobs,
  MemoryMessages,
  MemoryOptOuts,
  MemorySharings,
  noClicks,
  oneProvider,
  ScriptedProvider,
} from './fakes/memory-deps.js';

const CAMPAIGN = '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a';
const PHONES = ['+905321234567', '+905551112233', '+905441234567'];
const [A, B, C] = ['905321234567', '905551112233', '905441234567'];
const NOW = new Date('2026-11-23T10:00:00Z');
const DAY = 86_400_000;

/** The sharing, dispatch and cancel paths in memory; `batch` dispatches, then the leader's sweep runs. */
async function setup(opts: { campaign?: Partial<SmsCampaign>; provider?: ProviderResult[] } = {}) {
  let now = NOW;
  const campaigns = new MemoryCampaigns();
  await campaigns.insert(campaignOf({ id: CAMPAIGN, accountId: 'acc', ...opts.campaign }));
  const provider = new ScriptedProvider(opts.provider ?? [{ outcome: 'accepted' }]);
  const deps = {
    campaigns,
    sharings: new MemorySharings(),
    dispatch: new MemoryDispatch(),
    jobs: new MemoryJobs(),
    messages: new MemoryMessages(),
    optOuts: new MemoryOptOuts(),
    completions: new MemoryCompletions(),
    pacer: { take: async () => undefined },
    links: {
      activateMany: async (items: { phone: string }[]) => items.map((i) => `https://survey/${i.phone}`),
      statesOf: async (_a: string, _c: string, phones: string[]) => phones.map(() => 'active' as const),
    },
    shortener: { shortenMany: async (urls: string[]) => urls.map((u) => `https://s.io/${u.slice(-4)}`), countClicked: noClicks },
    providers: oneProvider(provider),
    statusEvents: { changedMany: async () => undefined },
    clock: { now: () => now },
    newId: () => 'sh-1',
    settings: { defaultRegion: 'TR', maxPhones: 100, defaultSendWindow: null } as MessagingSettings,
  };
  await createSharing(deps, { accountId: 'acc', campaignId: CAMPAIGN, phoneNumbers: PHONES, customAttributes: {}, builtInResponses: {} });
  const published = deps.dispatch.events.splice(0);
  const state = newSweepState();
  const of = (phone: string) => published.find((e) => e.recipient.phone === phone)!;
  return {
    deps,
    of,
    at: (iso: string) => void (now = new Date(iso)),
    /** The scheduler leader's sweep (sharing.completed). */
    state,
    sweep: () => raiseCompletedSharings(deps, state),
    /** A dispatch batch, then a sweep. */
    async batch(events: DispatchEvent[]) {
      const results = await dispatchSms(deps, events);
      const raised = await raiseCompletedSharings(deps, state);
      return { results, raised };
    },
  };
}

const zero = { sent: 0, delivered: 0, failed: 0, unknown: 0, opted_out: 0, cancelled: 0 };

describe('sharing.completed', () => {
  it('is raised once every first message is settled, not before', async () => {
    const t = await setup();
    expect((await t.batch([t.of(A), t.of(B)])).results).toEqual(['sent', 'sent']);
    expect(t.deps.completions.events).toHaveLength(0);
    t.at('2026-11-23T10:01:00Z');
    expect((await t.batch([t.of(C)])).results).toEqual(['sent']);
    expect(t.deps.completions.events).toEqual([
      {
        sharingId: 'sh-1',
        accountId: 'acc',
        campaignId: CAMPAIGN,
        accepted: 3,
        counts: { ...zero, sent: 3 },
        completedAt: new Date('2026-11-23T10:01:00Z'),
      },
    ]);
  });

  it('counts a delivery report, a refusal for good and an unknown outcome as settled', async () => {
    const t = await setup({
      provider: [
        { outcome: 'accepted' },
        { outcome: 'rejected', retriable: false, reason: 'bad number' },
        { outcome: 'unknown', reason: 'timeout' },
      ],
    });
    await t.batch([t.of(A)]);
    await t.deps.messages.applyDeliveryReport(`sh-1.${A}`, 'delivered', NOW);
    await t.batch([t.of(B)]);
    expect(t.deps.completions.events).toHaveLength(0);
    await t.batch([t.of(C)]);
    expect(t.deps.completions.events.map((e) => e.counts)).toEqual([{ ...zero, delivered: 1, failed: 1, unknown: 1 }]);
  });

  it('waits for a retriable refusal to be sent again', async () => {
    const t = await setup({
      provider: [{ outcome: 'accepted' }, { outcome: 'rejected', retriable: true, reason: 'HTTP 503' }, { outcome: 'accepted' }],
    });
    const { results } = await t.batch([t.of(A), t.of(B), t.of(C)]);
    expect(results.filter((r) => r instanceof Error)).toHaveLength(1);
    expect(t.deps.completions.events).toHaveLength(0);
    const retried = [t.of(A), t.of(B), t.of(C)].filter((_, i) => results[i] instanceof Error);
    expect((await t.batch(retried)).results).toEqual(['sent']);
    expect(t.deps.completions.events.map((e) => e.counts)).toEqual([{ ...zero, sent: 3 }]);
  });

  it('counts opted-out recipients, and the sweep after a cancel that settles the last ones raises it', async () => {
    const t = await setup();
    // Opted out after the sharing was accepted: its turn records it opted_out.
    await t.deps.optOuts.addMany({ accountId: 'acc', phones: [B], source: 'api', at: NOW });
    expect((await t.batch([t.of(A), t.of(B)])).results).toEqual(['sent', 'opted_out']);
    expect(t.deps.completions.events).toHaveLength(0);
    expect(await cancelSharing(t.deps, 'acc', 'sh-1')).toEqual({ cancelled: 1, alreadySent: 1 });
    expect(await t.sweep()).toBe(1);
    expect(t.deps.completions.events.map((e) => [e.accepted, e.counts])).toEqual([[3, { ...zero, sent: 1, opted_out: 1, cancelled: 1 }]]);
  });

  it('is not raised by a cancel while a message is still being handed over', async () => {
    const t = await setup();
    await t.batch([t.of(A)]);
    // B claimed by a dispatcher that has not finished: neither sent nor cancellable.
    await t.deps.messages.claim({ ...(await t.deps.messages.findById(`sh-1.${A}`))!, id: `sh-1.${B}`, phone: B });
    await cancelSharing(t.deps, 'acc', 'sh-1');
    expect(await t.sweep()).toBe(0);
    expect(t.deps.completions.events).toHaveLength(0);
  });

  it('does not count reminders', async () => {
    const reminders: CampaignReminder[] = [{ after: 'P1D', afterMs: DAY, messageTemplate: null }];
    const t = await setup({ campaign: { reminders } });
    await t.batch([t.of(A), t.of(B)]);
    t.at('2026-11-24T10:00:00Z');
    expect(await runDueSteps(t.deps, 'p')).toBe(1);
    const remind = t.deps.dispatch.events.splice(0);
    expect((await t.batch(remind)).results).toEqual(['sent', 'sent', 'skipped']);
    // Four records now (two first messages, two reminders): still one first message short.
    expect(await t.deps.messages.firstsByStatus('sh-1')).toEqual({ sent: 2 });
    expect(await raiseIfComplete(t.deps, (await t.deps.sharings.findById('acc', 'sh-1'))!)).toBe(false);
    expect(t.deps.completions.events).toHaveLength(0);
    await t.batch([t.of(C)]);
    expect(t.deps.completions.events.map((e) => e.counts)).toEqual([{ ...zero, sent: 3 }]);
  });

  it('a failed publish fails the sweep; the next one raises it, and once noted no sweep raises it again', async () => {
    const t = await setup();
    await dispatchSms(t.deps, [t.of(A), t.of(B), t.of(C)]);
    t.deps.completions.failNext = 1;
    await expect(t.sweep()).rejects.toThrow('broker unavailable');
    expect(t.deps.completions.events).toHaveLength(0);
    expect(await t.sweep()).toBe(1);
    expect(await t.sweep()).toBe(0);
    expect(t.deps.completions.events.map((e) => e.sharingId)).toEqual(['sh-1']);
    expect(t.deps.sharings.completed.get('sh-1')).toEqual(NOW);
  });

  it('leaves a sharing due later, and one older than the look-back, to themselves', async () => {
    const t = await setup();
    await dispatchSms(t.deps, [t.of(A), t.of(B), t.of(C)]);
    const sharing = t.deps.sharings.items.get('sh-1')!.sharing;
    sharing.scheduledFor = new Date('2026-11-23T12:00:00Z');
    expect(await t.sweep()).toBe(0);
    sharing.scheduledFor = null;
    t.at('2026-11-25T10:00:01Z');
    expect(await t.sweep()).toBe(0);
    t.at('2026-11-25T09:59:59Z');
    expect(await t.sweep()).toBe(1);
  });

  it('goes round the open sharings, so older ones that never settle do not hide a newer one', async () => {
    const t = await setup();
    // 55 sharings from the hour before, whose messages never settle (a provider down for days).
    for (let i = 0; i < 55; i++) {
      const id = `stuck-${String(i).padStart(2, '0')}`;
      t.deps.sharings.items.set(id, {
        sharing: { ...t.deps.sharings.items.get('sh-1')!.sharing, id, createdAt: new Date(NOW.getTime() - 3_600_000 + i) },
        recipients: [],
      });
    }
    await dispatchSms(t.deps, [t.of(A), t.of(B), t.of(C)]);
    expect(await t.sweep()).toBe(0);
    expect(t.state.from).toEqual({ createdAt: new Date(NOW.getTime() - 3_600_000 + 49), id: 'stuck-49' });
    expect(await t.sweep()).toBe(1);
    expect(t.state.from).toBeNull();
    expect(t.deps.completions.events.map((e) => e.sharingId)).toEqual(['sh-1']);
  });

  it('counts only once the noted progress says settled; a lost note is made up after a quiet spell', async () => {
    const t = await setup();
    const counted = vi.spyOn(t.deps.messages, 'firstsByStatus');
    await t.batch([t.of(A), t.of(B)]);
    expect(counted).not.toHaveBeenCalled();
    // The last batch's note is lost (a crash after its messages were written).
    t.deps.sharings.failNotes = true;
    await t.batch([t.of(C)]);
    expect(t.deps.sharings.items.get('sh-1')!.sharing.settledFirsts).toBe(2);
    expect(counted).not.toHaveBeenCalled();
    expect(t.deps.completions.events).toHaveLength(0);
    t.at(new Date(NOW.getTime() + QUIET_MS).toISOString());
    expect(await t.sweep()).toBe(1);
    expect(counted).toHaveBeenCalledTimes(1);
  });

  it('a hint above the truth (a note counted twice) is counted again only after a while or once the hint moves', async () => {
    const t = await setup();
    await t.batch([t.of(A), t.of(B)]);
    t.deps.sharings.items.get('sh-1')!.sharing.settledFirsts = 3;
    const counted = vi.spyOn(t.deps.messages, 'firstsByStatus');
    expect(await t.sweep()).toBe(0);
    expect(await t.sweep()).toBe(0);
    expect(counted).toHaveBeenCalledTimes(1);
    t.at(new Date(NOW.getTime() + RECOUNT_MS).toISOString());
    expect(await t.sweep()).toBe(0);
    expect(counted).toHaveBeenCalledTimes(2);
    await dispatchSms(t.deps, [t.of(C)]);
    expect(await t.sweep()).toBe(1);
    expect(counted).toHaveBeenCalledTimes(3);
  });
});
