import { describe, expect, it } from 'vitest';
import { createCampaign } from '../src/campaigns/domain/campaign.use-cases.js';
import { receiveDeliveryReport } from '../src/status/domain/delivery-report.js';
import { dispatchSms } from '../src/dispatch/domain/dispatch.use-cases.js';
import type { OutgoingSms, ProviderResult, SmsProvider } from '../src/providers/ports.js';
import type { LinkActivation } from '../src/shared/ports.js';
import type { DispatchEvent } from '../src/shared/domain/sharing.js';
import type { ReportRule } from '../src/shared/domain/sms-message.js';
import {
  dispatchOne,
  MemoryCampaigns,
  MemoryMessages,
  MemoryOptOuts,
  MemoryReportEvents,
  MemorySharings,
  noClicks,
  noLinkStates,
  type DispatchPorts,
} from './fakes/memory-deps.js';

/** A provider that records what it is handed; `idempotent` as the recording provider is. */
class RecordingProvider implements SmsProvider {
  readonly calls: OutgoingSms[] = [];
  constructor(
    readonly name: string,
    readonly deliveryRule?: ReportRule,
    readonly idempotent = false,
  ) {}
  async send(sms: OutgoingSms): Promise<ProviderResult> {
    this.calls.push(sms);
    return { outcome: 'accepted' };
  }
}

const url = (a: LinkActivation) => `https://api.example/s/${a.accountId}-${a.phone}`;
const clock = { now: () => new Date('2026-11-25T10:00:00Z') };
const ruleA: ReportRule = { statusParam: 'state', delivered: ['DELIVRD'], failed: ['UNDELIV'] };

async function setup() {
  const campaigns = new MemoryCampaigns();
  for (const accountId of ['acc-a', 'acc-b', 'acc-c'])
    await createCampaign(
      { campaigns, channels: { createSmsChannel: async () => `ch-${accountId}` }, clock, newId: () => `camp-${accountId}` },
      { accountId, name: 'c', nodeId: 'n', nodeName: 'n', flowId: 'f', messageTemplate: 'Hi {{link}}', linkTtlDays: 0 },
    );
  const deployment = new RecordingProvider('outbox', undefined, true);
  const own = new Map<string, SmsProvider>([
    ['acc-a', new RecordingProvider('account-http', ruleA)],
    ['acc-b', new RecordingProvider('account-http', { statusParam: 'status', delivered: ['1'], failed: ['2'] })],
  ]);
  const unreadable = new Set<string>();
  const messages = new MemoryMessages();
  const deps: DispatchPorts = {
    campaigns,
    links: { activateMany: async (items) => items.map(url), statesOf: noLinkStates },
    shortener: { shortenMany: async (us) => us.map((u) => u.replace('api.example/s', 's.example')), countClicked: noClicks },
    messages,
    providers: {
      forAccount: async (accountId) => {
        if (unreadable.has(accountId)) throw new Error(`provider of ${accountId} cannot be read`);
        return own.get(accountId) ?? deployment;
      },
    },
    optOuts: new MemoryOptOuts(),
    sharings: new MemorySharings(),
    statusEvents: { changedMany: async () => undefined },
    clock,
  };
  const calls = (accountId: string) => (own.get(accountId) as RecordingProvider).calls;
  return { deps, messages, deployment, own, calls, unreadable };
}

const event = (accountId: string, phone: string): DispatchEvent => ({
  sharingId: `sh-${accountId}`,
  accountId,
  campaignId: `camp-${accountId}`,
  recipient: { phone, input: phone, attributes: {}, builtInResponses: {} },
  reminder: 0,
});

describe("dispatching through an account's own provider", () => {
  it("one at a time: each account's SMS reach its own provider, the others the deployment's; the record names it and keeps its report rule", async () => {
    const { deps, messages, deployment, calls } = await setup();
    expect(await dispatchOne(deps, event('acc-a', '905320000001'))).toBe('sent');
    expect(await dispatchOne(deps, event('acc-b', '905320000002'))).toBe('sent');
    expect(await dispatchOne(deps, event('acc-c', '905320000003'))).toBe('sent');
    expect(calls('acc-a').map((c) => [c.accountId, c.to])).toEqual([['acc-a', '905320000001']]);
    expect(calls('acc-b').map((c) => [c.accountId, c.to])).toEqual([['acc-b', '905320000002']]);
    expect(deployment.calls.map((c) => [c.accountId, c.to])).toEqual([['acc-c', '905320000003']]);
    expect(await messages.findById('sh-acc-a.905320000001')).toMatchObject({ provider: 'account-http', deliveryRule: ruleA });
    expect((await messages.findById('sh-acc-c.905320000003'))?.deliveryRule).toBeUndefined();
  });

  it("a batch of several accounts: one hand-over per provider, none gets another account's SMS", async () => {
    const { deps, messages, deployment, calls } = await setup();
    const events = [
      event('acc-a', '905320000011'),
      event('acc-b', '905320000012'),
      event('acc-c', '905320000013'),
      event('acc-a', '905320000014'),
      event('acc-c', '905320000015'),
    ];
    expect(await dispatchSms(deps, events)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    expect(calls('acc-a').map((c) => c.to)).toEqual(['905320000011', '905320000014']);
    expect(calls('acc-b').map((c) => c.to)).toEqual(['905320000012']);
    expect(deployment.calls.map((c) => c.to)).toEqual(['905320000013', '905320000015']);
    expect(calls('acc-a').every((c) => c.text.startsWith('Hi https://s.example/acc-a-'))).toBe(true);
    expect((await messages.findById('sh-acc-a.905320000014'))?.deliveryRule).toEqual(ruleA);
    expect((await messages.findById('sh-acc-c.905320000015'))?.provider).toBe('outbox');

    // Redelivered, the whole batch: nothing reaches any provider again.
    expect(await dispatchSms(deps, events)).toEqual(events.map(() => 'already_handled'));
    expect([calls('acc-a').length, calls('acc-b').length, deployment.calls.length]).toEqual([2, 1, 2]);
  });

  it("an account whose provider cannot be read: nothing is claimed or sent for it (never the deployment's instead); it is retried", async () => {
    const { deps, messages, deployment, calls, unreadable } = await setup();
    unreadable.add('acc-a');
    const events = [event('acc-a', '905320000021'), event('acc-c', '905320000022')];
    expect(await dispatchSms(deps, events)).toEqual([new Error('provider of acc-a cannot be read'), 'sent']);
    await expect(dispatchOne(deps, events[0]!)).rejects.toThrow('provider of acc-a cannot be read');
    expect(await messages.findById('sh-acc-a.905320000021')).toBeNull();
    expect(deployment.calls.map((c) => c.to)).toEqual(['905320000022']);

    unreadable.delete('acc-a');
    expect(await dispatchOne(deps, events[0]!)).toBe('sent');
    expect(calls('acc-a').map((c) => c.to)).toEqual(['905320000021']);
  });

  it('a claim left "sending" is taken over only by the idempotent provider that made it', async () => {
    const { deps, messages, deployment, own, calls } = await setup();
    const crashed = async (accountId: string, phone: string, provider: string) =>
      messages.claim({
        id: `sh-${accountId}.${phone}`,
        accountId,
        sharingId: `sh-${accountId}`,
        campaignId: `camp-${accountId}`,
        phone,
        text: 'x',
        provider,
        createdAt: clock.now(),
      });

    // Claimed by the recording provider (the account had no provider then), crashed; the account has one now: never sent.
    await crashed('acc-a', '905320000031', 'outbox');
    expect(await dispatchOne(deps, event('acc-a', '905320000031'))).toBe('already_handled');
    expect(calls('acc-a')).toEqual([]);

    // Claimed by the account's provider, crashed; the provider was removed since: the recording provider does not take it either.
    own.delete('acc-b');
    await crashed('acc-b', '905320000032', 'account-http');
    expect(await dispatchOne(deps, event('acc-b', '905320000032'))).toBe('already_handled');
    expect(await dispatchSms(deps, [event('acc-b', '905320000032')])).toEqual(['already_handled']);

    // Claimed by the recording provider and still it: resumed, as before account providers existed.
    await crashed('acc-c', '905320000033', 'outbox');
    expect(await dispatchOne(deps, event('acc-c', '905320000033'))).toBe('sent');
    expect(deployment.calls.map((c) => c.to)).toEqual(['905320000033']);
  });
});

describe('delivery reports of an account provider', () => {
  it("are read by the rule recorded on the message; a message without one by the deployment's", async () => {
    const { deps, messages } = await setup();
    await dispatchOne(deps, event('acc-a', '905320000041'));
    await dispatchOne(deps, event('acc-c', '905320000042'));
    const deploymentRule: ReportRule = { statusParam: 'status', delivered: ['1'], failed: ['2', '16'] };
    const report = (messageId: string, fields: Record<string, unknown>) =>
      receiveDeliveryReport({ ...deps, reportEvents: new MemoryReportEvents() }, { messageId, fields }, deploymentRule);

    // The deployment's field and codes mean nothing for account A's message.
    expect(await report('sh-acc-a.905320000041', { status: '1' })).toBe('missing_status');
    expect(await report('sh-acc-a.905320000041', { state: 'ENROUTE' })).toBe('progress');
    expect(await report('sh-acc-a.905320000041', { state: 'DELIVRD' })).toBe('applied');
    expect((await messages.findById('sh-acc-a.905320000041'))?.status).toBe('delivered');

    expect(await report('sh-acc-c.905320000042', { state: 'DELIVRD' })).toBe('missing_status');
    expect(await report('sh-acc-c.905320000042', { status: '2' })).toBe('applied');
    expect((await messages.findById('sh-acc-c.905320000042'))?.status).toBe('failed');
    expect(await report('sh-nope.905320000042', { status: '2' })).toBe('unknown_message');
  });
});
