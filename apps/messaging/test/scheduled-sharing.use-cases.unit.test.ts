import { describe, expect, it } from 'vitest';
import { AppError } from '@feedback/kit-core';
import { dispatchSms } from '../src/dispatch/domain/dispatch.use-cases.js';
import type { MessagingSettings, SurveyLinkState } from '../src/shared/ports.js';
import type { SendWindow } from '../src/shared/domain/send-window.js';
import type { SmsMessage } from '../src/shared/domain/sms-message.js';
import { runDueSteps } from '../src/scheduling/domain/scheduled-steps.use-cases.js';
import { cancelSharing } from '../src/intake/domain/sharing-cancel.use-cases.js';
import type { CampaignReminder, SmsCampaign } from '../src/shared/domain/sharing.js';
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
const DAY = 86_400_000;

/** Every port of the sharing, scheduling and dispatch paths in memory, on a clock the test moves. */
async function setup(campaign: Partial<SmsCampaign> = {}, states: Record<string, SurveyLinkState> = {}) {
  let now = new Date('2026-11-23T10:00:00Z');
  const campaigns = new MemoryCampaigns();
  await campaigns.insert(campaignOf({ id: CAMPAIGN, accountId: 'acc', messageTemplate: 'Anket: {{link}}', ...campaign }));
  const provider = new ScriptedProvider([{ outcome: 'accepted' }]);
  const deps = {
    campaigns,
    sharings: new MemorySharings(),
    dispatch: new MemoryDispatch(),
    jobs: new MemoryJobs(),
    messages: new MemoryMessages(),
    optOuts: new MemoryOptOuts(),
    pacer: { take: async () => undefined },
    links: {
      activateMany: async (items: { phone: string }[]) => items.map((i) => `https://survey/${i.phone}`),
      statesOf: async (_a: string, _c: string, phones: string[]) => phones.map((p) => states[p] ?? 'active'),
    },
    shortener: { shortenMany: async (urls: string[]) => urls.map((u) => `https://s.io/${u.slice(-4)}`), countClicked: noClicks },
    providers: oneProvider(provider),
    statusEvents: { changed: [] as SmsMessage[], changedMany: async (m: SmsMessage[]) => void deps.statusEvents.changed.push(...m) },
    completions: new MemoryCompletions(),
    clock: { now: () => now },
    newId: () => 'sh-1',
    settings: { defaultRegion: 'TR', maxPhones: 100, defaultSendWindow: null } as MessagingSettings,
  };
  return {
    deps,
    provider,
    at: (iso: string) => void (now = new Date(iso)),
    /** Dispatches what was published since the last call, as the consumer would. */
    async deliver() {
      const events = deps.dispatch.events.splice(0);
      return events.length > 0 ? dispatchSms(deps, events) : [];
    },
  };
}

const share = (deps: Awaited<ReturnType<typeof setup>>['deps'], sendAt?: string) =>
  createSharing(deps, { accountId: 'acc', campaignId: CAMPAIGN, phoneNumbers: PHONES, customAttributes: {}, builtInResponses: {}, sendAt });

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('a sharing with send_at', () => {
  it('publishes nothing until its time, then every recipient once, whatever the scheduler repeats', async () => {
    const t = await setup();
    const summary = await share(t.deps, '2026-11-23T15:30:00+03:00');
    expect(summary.scheduledFor).toEqual(new Date('2026-11-23T12:30:00Z'));
    expect(t.deps.dispatch.events).toHaveLength(0);
    // Its recipients' sensitive attributes are kept (sealed) for the release, and forgotten after it.
    expect(t.deps.sharings.keepSensitive.get('sh-1')).toBe(true);
    expect(t.deps.sharings.droppedSensitive).toEqual([]);

    t.at('2026-11-23T12:29:59Z');
    expect(await runDueSteps(t.deps, 'p1')).toBe(0);
    expect(t.deps.dispatch.events).toHaveLength(0);

    t.at('2026-11-23T12:30:00Z');
    expect(await runDueSteps(t.deps, 'p1')).toBe(1);
    expect(t.deps.dispatch.events.map((e) => [e.recipient.phone, e.reminder])).toEqual([
      ['905321234567', 0],
      ['905551112233', 0],
      ['905441234567', 0],
    ]);
    expect(t.deps.sharings.droppedSensitive).toEqual(['sh-1']);
    expect(await t.deliver()).toEqual(['sent', 'sent', 'sent']);
    expect(await runDueSteps(t.deps, 'p1')).toBe(0);
    expect(await runDueSteps(t.deps, 'p2')).toBe(0);
    expect(t.provider.calls).toHaveLength(3);
  });

  it('a sharing sent at once never keeps its sensitive attributes: they travel in its events only', async () => {
    const t = await setup();
    await share(t.deps);
    expect(t.deps.sharings.keepSensitive.get('sh-1')).toBe(false);
    expect(t.deps.dispatch.events).toHaveLength(3);
  });

  it('refuses a time in the past, without an offset, or more than 30 days ahead, naming send_at', async () => {
    const t = await setup();
    for (const sendAt of ['2026-11-23T09:00:00Z', '2026-11-23T15:30:00', '2027-01-30T10:00:00Z', 'tomorrow']) {
      expect((await failure(share(t.deps, sendAt))).fields).toHaveProperty('send_at');
    }
    expect(t.deps.sharings.items.size).toBe(0);
  });

  it('a step taken by a process that died is taken again by another once its lease runs out', async () => {
    const t = await setup();
    await share(t.deps, '2026-11-23T10:05:00Z');
    t.at('2026-11-23T10:05:00Z');
    // p1 takes it and dies before releasing anything.
    const taken = await t.deps.jobs.claimDue(new Date('2026-11-23T10:05:00Z'), 'p1', new Date('2026-11-23T10:05:30Z'));
    expect(taken?.id).toBe('sh-1.j0');
    expect(await runDueSteps(t.deps, 'p2')).toBe(0); // p1 still leads and holds it
    t.at('2026-11-23T10:06:00Z');
    expect(await runDueSteps(t.deps, 'p2')).toBe(1);
    expect(t.deps.dispatch.events).toHaveLength(3);
  });
});

describe('a send window', () => {
  const window: SendWindow = { start: '09:00', end: '21:00', timeZone: 'Europe/Istanbul', days: [] };

  it('defers a sharing made outside it to its next opening, and sends at once inside it', async () => {
    const t = await setup({ sendWindow: window });
    t.at('2026-11-23T20:40:00Z'); // 23:40 in Istanbul
    const late = await share(t.deps);
    expect(late.scheduledFor).toEqual(new Date('2026-11-24T06:00:00Z'));
    expect(t.deps.dispatch.events).toHaveLength(0);
    t.at('2026-11-24T06:00:00Z');
    expect(await runDueSteps(t.deps, 'p')).toBe(1);
    expect(t.deps.dispatch.events).toHaveLength(3);
  });

  it("uses the deployment's window for a campaign without one", async () => {
    const t = await setup();
    t.deps.settings.defaultSendWindow = { ...window, days: ['mon', 'tue', 'wed', 'thu', 'fri'] };
    t.at('2026-11-27T19:00:00Z'); // Friday 22:00 in Istanbul
    expect((await share(t.deps)).scheduledFor).toEqual(new Date('2026-11-30T06:00:00Z')); // Monday 09:00
  });

  it('postpones a step whose time comes outside the window (a reminder) to the next opening', async () => {
    const reminders: CampaignReminder[] = [{ after: 'PT12H', afterMs: DAY / 2, messageTemplate: null }];
    const t = await setup({ sendWindow: window, reminders });
    t.at('2026-11-23T10:00:00Z'); // 13:00 Istanbul: sent at once
    await share(t.deps);
    await t.deliver();
    t.at('2026-11-23T22:00:00Z'); // the reminder's time: 01:00 Istanbul
    expect(await runDueSteps(t.deps, 'p')).toBe(1);
    expect(t.deps.dispatch.events).toHaveLength(0);
    expect(t.deps.jobs.items.get('sh-1.j1')).toMatchObject({ state: 'waiting', dueAt: new Date('2026-11-24T06:00:00Z') });
  });
});

describe('cancelling a sharing', () => {
  it('before its time: nothing is ever sent, and a repeat answers the same counts', async () => {
    const t = await setup();
    await share(t.deps, '2026-11-23T11:00:00Z');
    expect(await cancelSharing(t.deps, 'acc', 'sh-1')).toEqual({ cancelled: 3, alreadySent: 0 });
    expect(t.deps.sharings.droppedSensitive).toContain('sh-1');
    expect(await cancelSharing(t.deps, 'acc', 'sh-1')).toEqual({ cancelled: 3, alreadySent: 0 });
    t.at('2026-11-23T11:00:00Z');
    expect(await runDueSteps(t.deps, 'p')).toBe(0);
    expect(t.deps.dispatch.events).toHaveLength(0);
    expect(t.provider.calls).toHaveLength(0);
  });

  it('after some were sent: those count as sent, the rest are not handed over even when their events arrive', async () => {
    const t = await setup();
    await share(t.deps);
    const events = t.deps.dispatch.events.splice(0);
    expect(await dispatchSms(t.deps, events.slice(0, 1))).toEqual(['sent']);
    t.deps.statusEvents.changed.length = 0;
    expect(await cancelSharing(t.deps, 'acc', 'sh-1')).toEqual({ cancelled: 2, alreadySent: 1 });
    // A status event for each one cancelled, none for the one sent; a repeat publishes none again.
    const cancelledEvents = t.deps.statusEvents.changed.map((m) => `${m.phone}:${m.status}`);
    expect(cancelledEvents).toHaveLength(2);
    expect(cancelledEvents.every((e) => e.endsWith(':cancelled'))).toBe(true);
    expect(await cancelSharing(t.deps, 'acc', 'sh-1')).toEqual({ cancelled: 2, alreadySent: 1 });
    expect(t.deps.statusEvents.changed).toHaveLength(2);
    expect(await dispatchSms(t.deps, events)).toEqual(['already_handled', 'already_handled', 'already_handled']);
    expect(t.provider.calls).toHaveLength(1);
  });

  it("answers 404 for another account's sharing and changes nothing", async () => {
    const t = await setup();
    await share(t.deps, '2026-11-23T11:00:00Z');
    expect((await failure(cancelSharing(t.deps, 'other', 'sh-1'))).kind).toBe('not_found');
    expect(t.deps.jobs.items.get('sh-1.j0')).toMatchObject({ state: 'waiting' });
  });
});

describe('reminders', () => {
  const reminders: CampaignReminder[] = [{ after: 'P1D', afterMs: DAY, messageTemplate: 'Hatırlatma: {{link}}' }];

  it('reach only the recipients whose link is still active, with the same short link, once', async () => {
    const t = await setup({ reminders }, { '905551112233': 'answered', '905441234567': 'expired' });
    await share(t.deps);
    expect(await t.deliver()).toEqual(['sent', 'sent', 'sent']);
    const first = t.provider.calls.find((c) => c.to === '905321234567')!;
    t.at('2026-11-24T10:00:00Z');
    expect(await runDueSteps(t.deps, 'p')).toBe(1);
    expect(await t.deliver()).toEqual(['sent', 'skipped', 'skipped']);
    const reminder = t.provider.calls[3]!;
    expect(reminder.to).toBe('905321234567');
    expect(reminder.messageId).toBe('sh-1.905321234567.r1');
    expect(reminder.text).toBe(`Hatırlatma: ${first.text.replace('Anket: ', '')}`);
    // Redelivered, and run again by another process: nobody gets it twice.
    await t.deps.jobs.schedule([
      { id: 'again', accountId: 'acc', sharingId: 'sh-1', campaignId: CAMPAIGN, reminder: 1, dueAt: new Date(0) },
    ]);
    await runDueSteps(t.deps, 'p');
    expect(await t.deliver()).toEqual(['already_handled', 'skipped', 'skipped']);
    expect(t.provider.calls).toHaveLength(4);
  });

  it('do not go to a recipient whose first message did not go out', async () => {
    const t = await setup({ reminders });
    await share(t.deps);
    const events = t.deps.dispatch.events.splice(0);
    await dispatchSms(t.deps, events.slice(0, 1));
    t.at('2026-11-24T10:00:00Z');
    await runDueSteps(t.deps, 'p');
    expect(await t.deliver()).toEqual(['sent', 'skipped', 'skipped']);
    expect(t.provider.calls.map((c) => c.messageId)).toEqual(['sh-1.905321234567', 'sh-1.905321234567.r1']);
  });

  it('do not go out once the sharing was cancelled, even when their events were already published', async () => {
    const t = await setup({ reminders });
    await share(t.deps);
    await t.deliver();
    t.at('2026-11-24T10:00:00Z');
    await runDueSteps(t.deps, 'p');
    const published = t.deps.dispatch.events.splice(0);
    expect(published).toHaveLength(3);
    await cancelSharing(t.deps, 'acc', 'sh-1');
    expect(await dispatchSms(t.deps, published)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(t.provider.calls).toHaveLength(3);
  });
});
