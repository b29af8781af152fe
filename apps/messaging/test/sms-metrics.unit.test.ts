import { metricsRegistry } from '@feedback/kit-metrics';
import { describe, expect, it } from 'vitest';
import { meteredDeliveryReports, meteredDispatch, meteredProvider } from '../src/metrics/metered.js';
import { failureReason, promSmsMetrics, type SmsMetrics } from '../src/metrics/sms.metrics.js';
import { dispatchSms } from '../src/dispatch/domain/dispatch.use-cases.js';
import { createSharing } from '../src/intake/domain/sharing.use-cases.js';
import type { OutgoingSms, ProviderResult, SmsProvider } from '../src/providers/ports.js';
import type { DeliveryStatus } from '../src/shared/domain/sms-message.js';
import { applyDeliveryReport, KANNEL_DELIVERY_RULE } from '../src/status/domain/delivery-report.js';
import {
  campaignOf,
  sendOne,
  MemoryCampaigns,
  MemoryDispatch,
  MemoryMessages,
  MemoryReportEvents,
  MemoryJobs,
  MemorySharings,
  MemoryOptOuts,
  noClicks,
  noLinkStates,
  oneProvider,
  ScriptedProvider,
} from './fakes/memory-deps.js';

/** The in-memory SmsMetrics: what the metered adapters reported, in order. */
class MemorySmsMetrics implements SmsMetrics {
  accepts: number[] = [];
  handOvers: { provider: string; reason: string | null }[] = [];
  reports: { provider: string; status: DeliveryStatus }[] = [];
  accepted(count: number) {
    this.accepts.push(count);
  }
  handedOver(provider: string, result: ProviderResult) {
    this.handOvers.push({ provider, reason: failureReason(result) });
  }
  deliveryReport(provider: string, status: DeliveryStatus) {
    this.reports.push({ provider, status });
  }
}

const clock = { now: () => new Date('2026-11-23T10:00:00Z') };
const cmd = { accountId: 'a', sharingId: 's1', campaignId: 'c', phone: '905321234567', text: 'hi' };
const sms: OutgoingSms = { messageId: 'm', accountId: 'a', sharingId: 's', to: '905321234567', text: 'hi' };

describe('the metered provider', () => {
  it('counts each hand-over by outcome, under the provider it wraps', async () => {
    const metrics = new MemorySmsMetrics();
    const inner = new ScriptedProvider([
      { outcome: 'accepted' },
      { outcome: 'rejected', retriable: true, reason: 'ECONNREFUSED' },
      { outcome: 'rejected', retriable: false, reason: 'HTTP 403' },
      { outcome: 'unknown', reason: 'timeout' },
      new Error('adapter broke'),
    ]);
    const provider = meteredProvider(inner, metrics);
    expect(provider.name).toBe('scripted');
    expect(provider.idempotent).toBe(false);
    for (let i = 0; i < 4; i++) await provider.send(sms);
    await expect(provider.send(sms)).rejects.toThrow('adapter broke');
    expect(metrics.handOvers).toEqual([
      { provider: 'scripted', reason: null },
      { provider: 'scripted', reason: 'refused_retriable' },
      { provider: 'scripted', reason: 'refused' },
      { provider: 'scripted', reason: 'unknown' },
      { provider: 'scripted', reason: 'unknown' },
    ]);
    expect(inner.calls).toHaveLength(5);
  });

  it('counts every message of a bulk hand-over, and a failed one as unknown for each', async () => {
    const metrics = new MemorySmsMetrics();
    let fail = false;
    const inner: SmsProvider = {
      name: 'outbox',
      idempotent: true,
      send: () => Promise.reject(new Error('unused')),
      sendMany: async (list) => {
        if (fail) throw new Error('db away');
        return list.map((m, i): ProviderResult =>
          i === 0 ? { outcome: 'accepted', providerMessageId: m.messageId } : { outcome: 'unknown', reason: 'x' },
        );
      },
    };
    const provider = meteredProvider(inner, metrics);
    expect(provider.idempotent).toBe(true);
    expect(await provider.sendMany!([sms, sms])).toEqual([
      { outcome: 'accepted', providerMessageId: 'm' },
      { outcome: 'unknown', reason: 'x' },
    ]);
    fail = true;
    await expect(provider.sendMany!([sms, sms, sms])).rejects.toThrow('db away');
    expect(metrics.handOvers.map((h) => h.reason)).toEqual([null, 'unknown', 'unknown', 'unknown', 'unknown']);
  });

  it('keeps the at-most-once rule: a redelivered event is neither sent nor counted again', async () => {
    const metrics = new MemorySmsMetrics();
    const messages = new MemoryMessages();
    const provider = meteredProvider(new ScriptedProvider([{ outcome: 'accepted' }]), metrics);
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('sent');
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('already_handled');
    expect(metrics.handOvers).toEqual([{ provider: 'scripted', reason: null }]);
  });

  it('a provider without a bulk send stays without one', () => {
    expect(meteredProvider(new ScriptedProvider([{ outcome: 'accepted' }]), new MemorySmsMetrics()).sendMany).toBeUndefined();
  });
});

describe('accepted recipients', () => {
  it('counts the recipients a sharing queued, once their events are sent', async () => {
    const metrics = new MemorySmsMetrics();
    const campaigns = new MemoryCampaigns();
    const campaignId = '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a';
    await campaigns.insert(campaignOf({ id: campaignId, accountId: 'acc' }));
    const inner = new MemoryDispatch();
    const summary = await createSharing(
      {
        campaigns,
        sharings: new MemorySharings(),
        dispatch: meteredDispatch(inner, metrics),
        clock,
        newId: () => 'sh',
        settings: { defaultRegion: 'TR', maxPhones: 100, defaultSendWindow: null },
        optOuts: new MemoryOptOuts(),
        jobs: new MemoryJobs(),
      },
      {
        accountId: 'acc',
        campaignId,
        phoneNumbers: ['05321234567', '05321234568', '05321234567', 'nope'],
        customAttributes: {},
        builtInResponses: {},
      },
    );
    expect(summary).toMatchObject({ accepted: 2, duplicate: 1, rejected: 1 });
    expect(inner.events).toHaveLength(2);
    expect(metrics.accepts).toEqual([2]);
  });

  it('counts nothing when the publish fails', async () => {
    const metrics = new MemorySmsMetrics();
    const publisher = meteredDispatch(
      { batch: () => ({ add: () => undefined, send: () => Promise.reject(new Error('kafka away')) }) },
      metrics,
    );
    const batch = publisher.batch();
    batch.add([
      {
        sharingId: 's',
        accountId: 'a',
        campaignId: 'c',
        recipient: { phone: '905321234567', input: '0532', attributes: {}, builtInResponses: {} },
        reminder: 0,
      },
    ]);
    await expect(batch.send()).rejects.toThrow('kafka away');
    expect(metrics.accepts).toEqual([]);
  });
});

describe('delivery reports', () => {
  it('counts a final status once, under the provider that sent the message; progress and repeats are not counted', async () => {
    const metrics = new MemorySmsMetrics();
    const messages = new MemoryMessages();
    await sendOne({ messages, provider: new ScriptedProvider([{ outcome: 'accepted' }]), clock }, cmd);
    await sendOne({ messages, provider: new ScriptedProvider([{ outcome: 'accepted' }]), clock }, { ...cmd, phone: '905321234568' });
    const deps = { messages: meteredDeliveryReports(messages, metrics), reportEvents: new MemoryReportEvents(), clock };
    expect(await applyDeliveryReport(deps, { messageId: 's1.905321234567', code: '8' }, KANNEL_DELIVERY_RULE)).toBe('progress');
    expect(await applyDeliveryReport(deps, { messageId: 's1.905321234567', code: '1' }, KANNEL_DELIVERY_RULE)).toBe('applied');
    expect(await applyDeliveryReport(deps, { messageId: 's1.905321234567', code: '2' }, KANNEL_DELIVERY_RULE)).toBe('ignored');
    expect(await applyDeliveryReport(deps, { messageId: 's1.905321234568', code: '16' }, KANNEL_DELIVERY_RULE)).toBe('applied');
    expect(metrics.reports).toEqual([
      { provider: 'scripted', status: 'delivered' },
      { provider: 'scripted', status: 'failed' },
    ]);
    // The wrapper still reads through to the repository it wraps.
    expect((await deps.messages.findById('s1.905321234567'))?.status).toBe('delivered');
  });
});

describe('the Prometheus side', () => {
  const value = async (name: string, labels: Record<string, string> = {}) => {
    const metric = await metricsRegistry.getSingleMetric(name)?.get();
    const found = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
    return found?.value ?? 0;
  };

  it('lands on the process registry with bounded labels (provider, reason, status)', async () => {
    const metrics = promSmsMetrics();
    const before = {
      accepted: await value('sms_accepted_total'),
      sent: await value('sms_sent_total', { provider: 'unit' }),
      refused: await value('sms_failed_total', { provider: 'unit', reason: 'refused' }),
      undelivered: await value('sms_delivery_reports_total', { provider: 'unit', status: 'undelivered' }),
    };
    metrics.accepted(3);
    metrics.handedOver('unit', { outcome: 'accepted' });
    metrics.handedOver('unit', { outcome: 'rejected', retriable: false, reason: 'no' });
    metrics.deliveryReport('unit', 'failed');
    expect(await value('sms_accepted_total')).toBe(before.accepted + 3);
    expect(await value('sms_sent_total', { provider: 'unit' })).toBe(before.sent + 1);
    expect(await value('sms_failed_total', { provider: 'unit', reason: 'refused' })).toBe(before.refused + 1);
    expect(await value('sms_delivery_reports_total', { provider: 'unit', status: 'undelivered' })).toBe(before.undelivered + 1);
    // A second wiring in the same process (tests, two entry points) shares the metrics.
    promSmsMetrics().accepted(1);
    expect(await value('sms_accepted_total')).toBe(before.accepted + 4);
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/^sms_failed_total\{provider="unit",reason="refused"\} \d+$/m);
  });

  it('a whole dispatch through the wired decorators counts one sent SMS', async () => {
    const metrics = new MemorySmsMetrics();
    const campaigns = new MemoryCampaigns();
    await campaigns.insert(campaignOf({ id: 'c', accountId: 'a' }));
    const provider = meteredProvider(new ScriptedProvider([{ outcome: 'accepted' }]), metrics);
    const outcomes = await dispatchSms(
      {
        campaigns,
        links: { activateMany: async (items) => items.map(() => 'https://s/x'), statesOf: noLinkStates },
        shortener: { shortenMany: async (us) => us, countClicked: noClicks },
        messages: new MemoryMessages(),
        providers: oneProvider(provider),
        optOuts: new MemoryOptOuts(),
        sharings: new MemorySharings(),
        statusEvents: { changedMany: async () => undefined },
        clock,
      },
      [
        {
          sharingId: 's',
          accountId: 'a',
          campaignId: 'c',
          recipient: { phone: '905321234567', input: '05321234567', attributes: {}, builtInResponses: {} },
          reminder: 0,
        },
      ],
    );
    expect(outcomes).toEqual(['sent']);
    expect(metrics.handOvers).toEqual([{ provider: 'scripted', reason: null }]);
  });
});
