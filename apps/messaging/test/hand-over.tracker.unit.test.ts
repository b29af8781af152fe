import { createLogger } from '@feedback/kit-core/runtime';
import { describe, expect, it } from 'vitest';
import { InProcessHandOvers } from '../src/dispatch/adapters/hand-over.tracker.js';
import { createCampaign } from '../src/campaigns/domain/campaign.use-cases.js';
import { dispatchSms } from '../src/dispatch/domain/dispatch.use-cases.js';
import { UndeliverableEventError } from '../src/dispatch/domain/dispatch-results.js';
import type { OutgoingSms, ProviderResult, SmsProvider } from '../src/providers/ports.js';
import type { DispatchEvent } from '../src/shared/domain/sharing.js';
import {
  MemoryCampaigns,
  MemoryDispatch,
  MemoryMessages,
  MemoryOptOuts,
  MemorySharings,
  noClicks,
  noLinkStates,
  ScriptedProvider,
} from './fakes/memory-deps.js';

/** An HTTP-like provider (not idempotent) whose answers the test gives when it likes. */
class HeldProvider implements SmsProvider {
  readonly name = 'account-http';
  readonly calls: OutgoingSms[] = [];
  private readonly waiting: ((r: ProviderResult) => void)[] = [];
  send(sms: OutgoingSms): Promise<ProviderResult> {
    this.calls.push(sms);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  answer(r: ProviderResult) {
    for (const resolve of this.waiting.splice(0)) resolve(r);
  }
}

const clock = { now: () => new Date('2026-11-28T10:00:00Z') };
const logger = createLogger('hand-over-test', 'silent');

async function setup() {
  const campaigns = new MemoryCampaigns();
  for (const accountId of ['slow', 'fast'])
    await createCampaign(
      { campaigns, channels: { createSmsChannel: async () => `ch-${accountId}` }, clock, newId: () => `camp-${accountId}` },
      { accountId, name: 'c', nodeId: 'n', nodeName: 'n', flowId: 'f', messageTemplate: 'Hi {{link}}', linkTtlDays: 0 },
    );
  const slow = new HeldProvider();
  const fast = new ScriptedProvider([{ outcome: 'accepted' }]);
  const handOvers = new InProcessHandOvers({ budgetMs: 20, maxAttempts: 3, capacity: 10, logger });
  const noted: [string, number][] = [];
  const sharings = new MemorySharings();
  sharings.noteSettled = async (counts) => void noted.push(...counts);
  const dispatch = new MemoryDispatch();
  const deps = {
    campaigns,
    links: {
      activateMany: async (items: { phone: string }[]) => items.map((a) => `https://api.example/s/${a.phone}`),
      statesOf: noLinkStates,
    },
    shortener: { shortenMany: async (us: string[]) => us, countClicked: noClicks },
    messages: new MemoryMessages(),
    providers: { forAccount: async (accountId: string) => (accountId === 'slow' ? slow : fast) },
    optOuts: new MemoryOptOuts(),
    sharings,
    statusEvents: { changedMany: async () => undefined },
    clock,
    dispatch,
    handOvers: { tracker: handOvers, republish: dispatch },
  };
  return { deps, slow, fast, handOvers, noted };
}

const event = (accountId: string, phone: string): DispatchEvent => ({
  sharingId: `sh-${accountId}`,
  accountId,
  campaignId: `camp-${accountId}`,
  recipient: { phone, input: phone, attributes: {}, builtInResponses: {} },
  reminder: 0,
});

describe('a hand-over to a slow provider that is not idempotent', () => {
  it('is left running after the wait, so the batch and the next one go on; its outcome is recorded when the provider answers', async () => {
    const { deps, slow, fast, handOvers, noted } = await setup();
    const results = await dispatchSms(deps, [event('slow', '905321111111'), event('fast', '905322222222')]);
    expect(results).toEqual(['in_flight', 'sent']);
    expect(handOvers.size).toBe(1);
    expect((await deps.messages.findById('sh-slow.905321111111'))?.status).toBe('sending');
    // The next batch of the other account does not wait for the slow provider either.
    expect(await dispatchSms(deps, [event('fast', '905323333333')])).toEqual(['sent']);
    expect(fast.calls).toHaveLength(2);

    slow.answer({ outcome: 'accepted', providerMessageId: 'p-1' });
    await handOvers.close();
    expect((await deps.messages.findById('sh-slow.905321111111'))?.status).toBe('sent');
    expect(noted).toContainEqual(['sh-slow', 1]);
    // At most once: a redelivered event finds the claim taken.
    expect(await dispatchSms(deps, [event('slow', '905321111111')])).toEqual(['already_handled']);
    expect(slow.calls).toHaveLength(1);
  });

  it('a refusal for now is retried by publishing the event again (at once at shutdown), not by holding the partition', async () => {
    const { deps, slow, handOvers } = await setup();
    expect(await dispatchSms(deps, [event('slow', '905321111111')])).toEqual(['in_flight']);
    slow.answer({ outcome: 'rejected', retriable: true, reason: 'HTTP 503' });
    await handOvers.close();
    expect((await deps.messages.findById('sh-slow.905321111111'))?.status).toBe('retryable');
    expect(deps.dispatch.events.map((e) => e.recipient.phone)).toEqual(['905321111111']);
  });

  it('a quick refusal for now is retried by publishing again too, not in place; past maxAttempts it is dead-lettered', async () => {
    const { deps, slow, handOvers } = await setup();
    const pending = dispatchSms(deps, [event('slow', '905321111111')]);
    await new Promise((r) => setTimeout(r, 5));
    slow.answer({ outcome: 'rejected', retriable: true, reason: 'HTTP 503' });
    expect(await pending).toEqual(['retrying']);
    await handOvers.close();
    expect(deps.dispatch.events).toHaveLength(1);
    // The third attempt (maxAttempts 3) refused again: no more publishing, the event is dead-lettered.
    const record = (await deps.messages.findById('sh-slow.905321111111'))!;
    await deps.messages.claim({ ...record, createdAt: record.createdAt }, { takeOverSending: false });
    await deps.messages.finishMany([{ id: record.id, attempt: 2, at: clock.now(), status: 'retryable', error: 'HTTP 503' }]);
    const last = dispatchSms(deps, [event('slow', '905321111111')]);
    await new Promise((r) => setTimeout(r, 5));
    slow.answer({ outcome: 'rejected', retriable: true, reason: 'HTTP 503' });
    const [result] = await last;
    expect(result).toBeInstanceOf(UndeliverableEventError);
    expect(deps.dispatch.events).toHaveLength(1);
  });

  it('is awaited when the provider answers within the wait, as without a tracker', async () => {
    const { deps, slow, handOvers } = await setup();
    const pending = dispatchSms(deps, [event('slow', '905321111111')]);
    await new Promise((r) => setTimeout(r, 5));
    slow.answer({ outcome: 'accepted' });
    expect(await pending).toEqual(['sent']);
    expect(handOvers.size).toBe(0);
  });
});
