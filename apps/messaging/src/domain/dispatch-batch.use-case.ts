import { activationOf, isResumable, smsText, type DispatchDeps } from './dispatch.use-case.js';
import type {
  BulkLinkShortener,
  BulkMessageRepository,
  BulkStatusEvents,
  BulkSurveyLinks,
  OutgoingSms,
  ProviderResult,
  SmsProvider,
} from './ports.js';
import { finishing, type SendOutcome } from './send-sms.use-case.js';
import type { DispatchEvent, SmsCampaign } from './sharing.js';
import { messageId, type SmsMessage } from './sms-message.js';

export interface BatchDispatchDeps extends DispatchDeps {
  messages: DispatchDeps['messages'] & BulkMessageRepository;
  links: DispatchDeps['links'] & BulkSurveyLinks;
  shortener: DispatchDeps['shortener'] & BulkLinkShortener;
  statusEvents: DispatchDeps['statusEvents'] & BulkStatusEvents;
}

/** Hand-overs in flight at once for a provider without a bulk send (an HTTP gateway). */
const SEND_CONCURRENCY = 16;

/**
 * Many sms.dispatch events at once, with the same outcome per event as dispatchSms but a few
 * round trips per batch instead of a dozen per recipient: one read of the message records,
 * one activation call and one shortening call per (account, campaign), one claim write, one
 * provider call where the provider takes many, one status write and one status publish.
 *
 * Answers each event's outcome, or undefined for the events it leaves to dispatchSms one by
 * one (which retries and dead-letters): a record that exists already (redelivered or
 * retryable), a vanished campaign, a failed activation, a retriable provider refusal. The
 * claim is taken before the provider sees a message, as in sendSms, so whatever part of a
 * batch is redelivered, each (sharing, phone) reaches a non-idempotent provider at most once.
 */
export async function dispatchSmsBatch(deps: BatchDispatchDeps, events: DispatchEvent[]): Promise<(SendOutcome | undefined)[]> {
  const outcomes = new Array<SendOutcome | undefined>(events.length).fill(undefined);
  const ids = events.map((e) => messageId(e.sharingId, e.recipient.phone));
  const [found, providers] = await Promise.all([deps.messages.findMany([...new Set(ids)]), providersOf(deps, events)]);
  const existing = new Map(found.map((m) => [m.id, m]));

  // Fresh events only, each message once; grouped by campaign (activation and links are per account).
  const groups = new Map<string, number[]>();
  const taken = new Set<string>();
  events.forEach((e, i) => {
    const provider = providers.get(e.accountId);
    if (!provider) return; // its provider could not be read: one by one, which retries
    const found = existing.get(ids[i]!);
    // Handled already: done. Resumable (see dispatchSms) or a repeat within the batch: one by one.
    if (found && !isResumable(found, provider)) outcomes[i] = 'already_handled';
    if (found || taken.has(ids[i]!)) return;
    taken.add(ids[i]!);
    const key = `${e.accountId}/${e.campaignId}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });

  const ready: Ready[] = [];
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const first = events[indexes[0]!]!;
      const campaign = await deps.campaigns.findById(first.accountId, first.campaignId);
      if (!campaign) return; // dispatchSms dead-letters them
      const activated = await deps.links.activateMany(indexes.map((i) => activationOf(events[i]!, campaign)));
      const live = indexes.flatMap((index, k) => (typeof activated[k] === 'string' ? [{ index, url: activated[k] }] : []));
      if (live.length === 0) return;
      const short = await deps.shortener.shortenMany(
        live.map((l) => l.url),
        first.accountId,
      );
      live.forEach(({ index }, k) => ready.push({ index, campaign, text: smsText(campaign, events[index]!, short[k]!) }));
    }),
  );
  if (ready.length === 0) return outcomes;

  // One hand-over per provider: usually the deployment's alone, or an account's own as well.
  const now = deps.clock.now();
  const byProvider = new Map<SmsProvider, Ready[]>();
  for (const r of ready) {
    const provider = providers.get(events[r.index]!.accountId)!;
    byProvider.set(provider, [...(byProvider.get(provider) ?? []), r]);
  }
  const settled = await Promise.allSettled(
    [...byProvider].map(([provider, items]) =>
      handOver(
        deps,
        provider,
        items.map((r) => ({ ...r, msg: newMessage(r, events[r.index]!, ids[r.index]!, provider, now) })),
        outcomes,
      ),
    ),
  );
  // Whatever a failed hand-over leaves goes one by one, whose claims keep it at most once.
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return outcomes;
}

type Ready = { index: number; campaign: SmsCampaign; text: string };

/** The provider of each account of the batch; an account whose provider cannot be read is left out. */
async function providersOf(deps: BatchDispatchDeps, events: DispatchEvent[]): Promise<Map<string, SmsProvider>> {
  const found = new Map<string, SmsProvider>();
  await Promise.all(
    [...new Set(events.map((e) => e.accountId))].map(async (accountId) => {
      try {
        found.set(accountId, await deps.providers.forAccount(accountId));
      } catch {
        // dispatchSms meets the same failure, retries with backoff and dead-letters in the end.
      }
    }),
  );
  return found;
}

const newMessage = (r: Ready, event: DispatchEvent, id: string, provider: SmsProvider, now: Date): NewMessage => ({
  id,
  accountId: event.accountId,
  sharingId: event.sharingId,
  campaignId: r.campaign.id,
  phone: event.recipient.phone,
  text: r.text,
  provider: provider.name,
  deliveryRule: provider.deliveryRule,
  createdAt: now,
});

/** The batch's messages for one provider: claimed, handed over and finished, each outcome set in `outcomes`. */
async function handOver(
  deps: BatchDispatchDeps,
  provider: SmsProvider,
  ready: (Ready & { msg: NewMessage })[],
  outcomes: (SendOutcome | undefined)[],
): Promise<void> {
  const fresh = ready.map((r) => r.msg);
  if (provider.idempotent === true && provider.sendMany) {
    const handed = await handOverFirst(deps, fresh, provider.sendMany.bind(provider));
    ready.forEach(({ index }, k) => (outcomes[index] = handed[k]));
    return;
  }

  const claims = await deps.messages.claimMany(fresh);
  // A claim lost to a concurrent consumer: that one sends it.
  const claimed = ready.flatMap((r, k) => (claims[k] ? [{ ...r, msg: claims[k] }] : []));
  ready.forEach((r, k) => {
    if (!claims[k]) outcomes[r.index] = 'already_handled';
  });
  if (claimed.length === 0) return;

  const results = await sendAll(
    provider,
    claimed.map(({ msg }) => outgoing(msg)),
  );
  const at = deps.clock.now();
  await deps.messages.finishMany(claimed.map(({ msg }, k) => ({ id: msg.id, attempt: msg.attempts, at, ...finishing(results[k]!) })));
  claimed.forEach(({ index }, k) => (outcomes[index] = outcomeOf(results[k]!)));
  // As stored (a delivery report may have overtaken the provider's answer), so watchers see every attempt.
  await deps.statusEvents.changedMany(await deps.messages.findMany(claimed.map(({ msg }) => msg.id)));
}

/**
 * An idempotent provider (the outbox) records each message once whatever it is handed, so the
 * message needs no claim before the hand-over: the lot is handed over, then the records are
 * stored with their outcome in one write (a claim and its finish are two). A record another
 * consumer stored meanwhile stays as it is; the provider kept one copy. A throw stores nothing:
 * the one-by-one path hands the messages over again, which the provider absorbs.
 */
async function handOverFirst(
  deps: BatchDispatchDeps,
  fresh: NewMessage[],
  sendMany: (sms: OutgoingSms[]) => Promise<ProviderResult[]>,
): Promise<(SendOutcome | undefined)[]> {
  const results = await sendMany(fresh.map(outgoing));
  const at = deps.clock.now();
  const records: SmsMessage[] = fresh.map((m, k) => {
    const { status, providerMessageId, error } = finishing(results[k]!);
    return { ...m, status, attempts: 1, providerMessageId: providerMessageId ?? null, error: error ?? null, updatedAt: at };
  });
  const stored = await deps.messages.recordMany(records);
  await deps.statusEvents.changedMany(records.filter((_, k) => stored[k]));
  return records.map((_, k) => (stored[k] ? outcomeOf(results[k]!) : 'already_handled'));
}

/** As sendSms answers, except a retriable refusal: left to dispatchSms (undefined), which finds the record "retryable" and retries with backoff. */
const outcomeOf = (r: ProviderResult): SendOutcome | undefined => {
  const { status } = finishing(r);
  return status === 'retryable' ? undefined : status;
};

type NewMessage = Parameters<BatchDispatchDeps['messages']['claim']>[0];

const outgoing = (m: NewMessage): OutgoingSms => ({
  messageId: m.id,
  accountId: m.accountId,
  sharingId: m.sharingId,
  to: m.phone,
  text: m.text,
});

/** The provider's bulk send when it has one; else one hand-over each, a few at a time. A throw is an unknown outcome. */
async function sendAll(provider: SmsProvider, sms: OutgoingSms[]): Promise<ProviderResult[]> {
  const unknown = (err: unknown): ProviderResult => ({ outcome: 'unknown', reason: (err as Error).message });
  if (provider.sendMany) {
    try {
      return await provider.sendMany(sms);
    } catch (err) {
      return sms.map(() => unknown(err));
    }
  }
  const results = new Array<ProviderResult>(sms.length);
  let next = 0;
  const worker = async () => {
    while (next < sms.length) {
      const i = next++;
      results[i] = await provider.send(sms[i]!).catch(unknown);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, sms.length) }, worker));
  return results;
}
