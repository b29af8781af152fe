import { describe, expect, it } from 'vitest';
import { createCampaign } from '../src/campaigns/domain/campaign.use-cases.js';
import { AppError } from '@feedback/kit-core';
import { dispatchSms } from '../src/dispatch/domain/dispatch.use-cases.js';
import { RetriableSendError, UndeliverableEventError } from '../src/dispatch/domain/dispatch-results.js';
import type { SurveyChannels } from '../src/shared/ports.js';
import type { SmsProvider } from '../src/providers/ports.js';
import type { LinkActivation, SurveyLinks } from '../src/shared/ports.js';
import type { DispatchEvent } from '../src/shared/domain/sharing.js';
import type { SmsMessage } from '../src/shared/domain/sms-message.js';
import {
  dispatchOne,
  MemoryCampaigns,
  MemoryMessages,
  noClicks,
  noLinkStates,
  MemoryOptOuts,
  MemorySharings,
  oneProvider,
  ScriptedProvider,
  type DispatchPorts,
} from './fakes/memory-deps.js';

/** The survey service as the dispatcher sees it: one link per (channel, phone), activations counted. */
class FakeSurvey implements SurveyChannels, SurveyLinks {
  readonly activations: LinkActivation[] = [];
  readonly channels: Parameters<SurveyChannels['createSmsChannel']>[0][] = [];
  async createSmsChannel(c: Parameters<SurveyChannels['createSmsChannel']>[0]) {
    this.channels.push(c);
    return `channel-${this.channels.length}`;
  }
  async activateMany(items: LinkActivation[]) {
    this.activations.push(...items);
    return items.map((a) => `https://api.example/s/token-${a.phone}`);
  }
  statesOf = noLinkStates;
}

async function setup(provider: SmsProvider = new ScriptedProvider([{ outcome: 'accepted' }])) {
  const survey = new FakeSurvey();
  const campaigns = new MemoryCampaigns();
  const statuses: SmsMessage[] = [];
  const clock = { now: () => new Date('2026-11-23T10:00:00Z') };
  const campaign = await createCampaign(
    { campaigns, channels: survey, clock, newId: () => 'camp-1' },
    {
      accountId: 'acc',
      name: 'Kasım',
      nodeId: 'node',
      nodeName: 'Şube',
      flowId: 'flow',
      messageTemplate: 'Sayın {{name}}, {{link}} {{ missing }}',
      linkTtlDays: 0,
    },
  );
  const deps: DispatchPorts = {
    campaigns,
    links: survey,
    shortener: { shortenMany: async (urls) => urls.map((url) => `https://s.example/${url.split('-').pop()}`), countClicked: noClicks },
    messages: new MemoryMessages(),
    providers: oneProvider(provider),
    optOuts: new MemoryOptOuts(),
    sharings: new MemorySharings(),
    statusEvents: { changedMany: async (ms) => void statuses.push(...ms.map((m) => ({ ...m }))) },
    clock,
  };
  return { deps, survey, campaign, statuses };
}

const event = (phone: string, attributes: Record<string, string> = {}): DispatchEvent => ({
  sharingId: 'sh-1',
  accountId: 'acc',
  campaignId: 'camp-1',
  recipient: { phone, input: phone, attributes, builtInResponses: { customerDetailInfo1: 'x' } },
  reminder: 0,
});

describe('dispatching one recipient', () => {
  it('activates the link, shortens it, renders the template and sends once', async () => {
    const provider = new ScriptedProvider([{ outcome: 'accepted' }]);
    const { deps, survey, campaign, statuses } = await setup(provider);
    expect(survey.channels).toEqual([
      { accountId: 'acc', name: 'Kasım', nodeId: 'node', nodeName: 'Şube', flowId: 'flow', linkTtlDays: 0 },
    ]);
    expect(campaign.channelId).toBe('channel-1');

    expect(await dispatchOne(deps, event('905321234567', { name: 'Ayşe', link: 'spoofed' }))).toBe('sent');
    expect(provider.calls.map((c) => c.text)).toEqual(['Sayın Ayşe, https://s.example/905321234567 ']);
    expect(survey.activations[0]).toMatchObject({
      channelId: 'channel-1',
      phone: '905321234567',
      builtInResponses: { customerDetailInfo1: 'x' },
      // Kept with the link and copied onto its answer (docs/api.md "Responses").
      campaignId: campaign.id,
      sharingId: 'sh-1',
      messageId: 'sh-1.905321234567',
    });
    expect(statuses.map((s) => s.status)).toEqual(['sent']);

    // Redelivered: no second activation, no second SMS.
    expect(await dispatchOne(deps, event('905321234567', { name: 'Ayşe' }))).toBe('already_handled');
    expect(survey.activations).toHaveLength(1);
    expect(provider.calls).toHaveLength(1);
  });

  it('renders an attribute the recipient lacks as empty', async () => {
    const provider = new ScriptedProvider([{ outcome: 'accepted' }]);
    const { deps } = await setup(provider);
    await dispatchOne(deps, event('905551112233'));
    expect(provider.calls[0]!.text).toBe('Sayın , https://s.example/905551112233 ');
  });

  it('an event of an unknown campaign can never succeed', async () => {
    const { deps } = await setup();
    await expect(dispatchOne(deps, { ...event('905321234567'), campaignId: 'gone' })).rejects.toBeInstanceOf(UndeliverableEventError);
  });

  it('a retriable provider refusal throws after publishing the status; the retry sends', async () => {
    const provider = new ScriptedProvider([
      { outcome: 'rejected', retriable: true, reason: 'HTTP 503: {"to":"905321234567"}' },
      { outcome: 'accepted' },
    ]);
    const { deps, statuses } = await setup(provider);
    const err = await dispatchOne(deps, event('905321234567')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriableSendError);
    // Logged with each retry: no message id and no answer body, so no phone.
    expect((err as Error).message).toBe('provider scripted refused the message for now: HTTP 503');
    expect(await dispatchOne(deps, event('905321234567'))).toBe('sent');
    expect(statuses.map((s) => [s.status, s.attempts])).toEqual([
      ['retryable', 1],
      ['sent', 2],
    ]);
  });

  it('a failing peer throws before anything is claimed, so the retry starts afresh', async () => {
    const { deps } = await setup();
    const links = deps.links;
    let fail = true;
    deps.links = {
      activateMany: async (items) => (fail ? Promise.reject(new Error('survey unavailable')) : links.activateMany(items)),
      statesOf: noLinkStates,
    };
    await expect(dispatchOne(deps, event('905321234567'))).rejects.toThrow(/survey unavailable/);
    expect(await deps.messages.findById('sh-1.905321234567')).toBeNull();
    fail = false;
    expect(await dispatchOne(deps, event('905321234567'))).toBe('sent');
  });
});

describe('an event refused for good', () => {
  it("a peer's INVALID_ARGUMENT records the recipient failed with the reason and answers undeliverable at once; the batch's others go", async () => {
    const provider = new ScriptedProvider([{ outcome: 'accepted' }]);
    const { deps, statuses } = await setup(provider);
    const links = deps.links;
    deps.links = {
      activateMany: async (items) => {
        const urls = await links.activateMany(items);
        return items.map((a, k) =>
          a.attributes.$x !== undefined ? new AppError('invalid', 'INVALID_ARGUMENT: custom_attributes.$x: name must be ...') : urls[k]!,
        );
      },
      statesOf: noLinkStates,
    };
    const noted: [string, number][] = [];
    deps.sharings.noteSettled = async (counts) => void noted.push(...counts);
    const results = await dispatchSms(deps, [event('905321234567', { $x: '1' }), event('905551112233')]);
    expect(results[0]).toBeInstanceOf(UndeliverableEventError);
    expect((results[0] as UndeliverableEventError).settled).toBe(true);
    expect(results[1]).toBe('sent');
    const failed = await deps.messages.findById('sh-1.905321234567');
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(/custom_attributes\.\$x/) });
    expect(statuses.map((s) => [s.phone, s.status])).toEqual(
      expect.arrayContaining([
        ['905321234567', 'failed'],
        ['905551112233', 'sent'],
      ]),
    );
    expect(provider.calls.map((c) => c.to)).toEqual(['905551112233']);
    // Its sharing counts it settled, so the sweep completes the sharing.
    expect(noted).toEqual([['sh-1', 2]]);
    // Redelivered: handled, nothing again.
    expect(await dispatchOne(deps, event('905321234567', { $x: '1' }))).toBe('already_handled');
  });

  it('an unavailable peer is not a refusal for good: nothing recorded, retried', async () => {
    const { deps } = await setup();
    deps.links = { activateMany: async (items) => items.map(() => new AppError('unavailable')), statesOf: noLinkStates };
    const [result] = await dispatchSms(deps, [event('905321234567')]);
    expect(result).toBeInstanceOf(AppError);
    expect(result).not.toBeInstanceOf(UndeliverableEventError);
    expect(await deps.messages.findById('sh-1.905321234567')).toBeNull();
  });
});

describe('a claim left "sending" by a crashed process', () => {
  // The crash: the record was claimed, then the process died before (or while) handing it over.
  async function crashedClaim(provider: ScriptedProvider) {
    const { deps } = await setup(provider);
    await deps.messages.claim({
      id: 'sh-1.905321234567',
      accountId: 'acc',
      sharingId: 'sh-1',
      campaignId: 'camp-1',
      phone: '905321234567',
      text: 't',
      provider: provider.name,
      createdAt: new Date(),
    });
    return deps;
  }

  it('is handed again to an idempotent provider (the recording one), so the SMS arrives there exactly once', async () => {
    const provider = new ScriptedProvider([{ outcome: 'accepted' }], true);
    const deps = await crashedClaim(provider);
    expect(await dispatchOne(deps, event('905321234567'))).toBe('sent');
    expect(provider.calls).toHaveLength(1);
    expect(await deps.messages.findById('sh-1.905321234567')).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await dispatchOne(deps, event('905321234567'))).toBe('already_handled');
  });

  it('is never handed again to any other provider (at most once)', async () => {
    const provider = new ScriptedProvider([{ outcome: 'accepted' }]);
    const deps = await crashedClaim(provider);
    expect(await dispatchOne(deps, event('905321234567'))).toBe('already_handled');
    expect(provider.calls).toHaveLength(0);
  });
});

describe('creating a campaign', () => {
  it('validates name and template before creating the channel', async () => {
    const survey = new FakeSurvey();
    const deps = { campaigns: new MemoryCampaigns(), channels: survey, clock: { now: () => new Date() }, newId: () => 'c' };
    const base = {
      accountId: 'acc',
      name: 'n',
      nodeId: 'node',
      nodeName: '',
      flowId: 'flow',
      messageTemplate: 'Hi {{link}}',
      linkTtlDays: 0,
    };
    await expect(createCampaign(deps, { ...base, name: ' ' })).rejects.toMatchObject({ fields: { name: expect.any(String) } });
    await expect(createCampaign(deps, { ...base, messageTemplate: 'Hi {{name}}' })).rejects.toMatchObject({
      fields: { message_template: 'must contain {{link}}' },
    });
    await expect(createCampaign(deps, { ...base, flowId: '' })).rejects.toMatchObject({ fields: { flow_id: 'is required' } });
    expect(survey.channels).toHaveLength(0);
  });
});
