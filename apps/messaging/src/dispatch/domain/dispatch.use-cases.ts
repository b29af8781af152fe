import { AppError, type ErrorKind } from '@feedback/kit-core';
import type {
  DispatchPublisher,
  HandOverTracker,
  LinkActivation,
  MessagingDeps,
  NewMessage,
  OutgoingSms,
  ProviderResult,
  SmsProvider,
} from '../../shared/ports.js';
import type { DispatchEvent, SmsCampaign } from '../../shared/domain/sharing.js';
import { messageId, unsentRecord, type SmsMessage } from '../../shared/domain/sms-message.js';
import { reminderTexts } from '../../scheduling/domain/reminder-texts.js';
import { smsCost, type SmsEncoding } from '../../shared/domain/sms-encoding.js';
import { renderSms } from '../../shared/domain/sms-text.js';
import { noteSettledFirsts } from '../../status/domain/sharing-completion.use-cases.js';

type Deps = Pick<
  MessagingDeps,
  'campaigns' | 'sharings' | 'links' | 'shortener' | 'messages' | 'providers' | 'statusEvents' | 'clock' | 'optOuts'
> &
  Partial<Pick<MessagingDeps, 'handOvers' | 'dispatch'>>;

/**
 * `opted_out`: the phone is on the account's suppression list; its record says so and no provider
 * saw it. `skipped`: a reminder that does not go out (answered, expired, cancelled;
 * reminder-texts.ts). `in_flight`: claimed and being handed to a slow provider in the background
 * (HandOverTracker); its outcome is recorded when the provider answers. `retrying`: refused for
 * now by such a provider; its event is published again after a backoff.
 */
export type SendOutcome = 'sent' | 'already_handled' | 'unknown' | 'failed' | 'opted_out' | 'skipped' | 'in_flight' | 'retrying';

/** An event's outcome, or the error it failed with (the consumer retries it with backoff, or dead-letters it). */
export type DispatchResult = SendOutcome | Error;

/**
 * An event that can never be handled: its campaign is gone, a peer refused it for good (invalid,
 * not found, failed precondition), or its text cannot be rendered. Dead-lettered at once, never
 * retried. `settled`: its recipient's record was stored `failed` with the reason, so the sharing
 * completes.
 */
export class UndeliverableEventError extends Error {
  override name = 'UndeliverableEventError';
  settled = false;
}

/** Refusals that a retry would only repeat: the request itself is wrong, or what it names is gone. */
const PERMANENT_KINDS: ReadonlySet<ErrorKind> = new Set([
  'invalid',
  'not_found',
  'gone',
  'permission_denied',
  'too_large',
  'unsupported_media_type',
]);

/** A failure of the event's own that no retry can mend (UNAVAILABLE, DEADLINE_EXCEEDED, a provider's retry status are not). */
export const isPermanentFailure = (err: unknown): boolean =>
  err instanceof UndeliverableEventError || (err instanceof AppError && PERMANENT_KINDS.has(err.kind));

/** Longest reason kept on a failed record. */
const MAX_REASON = 500;

/** The provider refused before accepting; the caller (the Kafka consumer) retries with backoff. */
export class RetriableSendError extends Error {
  override name = 'RetriableSendError';
}

/** Hand-overs in flight at once for a provider without a bulk send (an HTTP gateway). */
const SEND_CONCURRENCY = 16;

/**
 * sms.dispatch events, one or many: activate each recipient's survey link, shorten it, render
 * the campaign's template, hand the SMS to the provider at most once and publish the new
 * statuses. A few round trips per call whatever its size: one read of the message records, one
 * activation call and one shortening call per (account, campaign), one claim write, one provider
 * call where the provider takes many, one status write and one status publish.
 *
 * At most once per (sharing, phone): the message record is claimed atomically before the
 * provider sees the message, so concurrent or redelivered events find it taken. Only a refusal
 * that certainly did not send (connection refused, a retry status) makes the record "retryable"
 * for a later attempt; a timeout after the request left may have sent it, so it ends "unknown"
 * instead of risking a second SMS. A record left "sending" by a crash between claim and answer
 * is taken again only by the same idempotent provider that claimed it (there a repeat is
 * harmless, so the SMS arrives exactly once); any other provider never sees it twice.
 *
 * Answers each event's outcome, or the error it failed with alone: a provider that cannot be
 * read, a vanished campaign (UndeliverableEventError), a failed activation or shortening, a
 * retriable refusal (RetriableSendError, after its status was published), a failed hand-over.
 * An event repeated within the call is answered as its first occurrence ("already_handled" once
 * that one has an outcome). A throw (the records cannot be read) fails them all.
 */
export async function dispatchSms(deps: Deps, events: DispatchEvent[]): Promise<DispatchResult[]> {
  const results = new Array<DispatchResult | undefined>(events.length).fill(undefined);
  const ids = events.map((e) => messageId(e.sharingId, e.recipient.phone, e.reminder));
  const [found, providers, optedOut] = await Promise.all([
    deps.messages.findMany([...new Set(ids)]),
    providersOf(deps, events),
    optedOutOf(deps, events),
  ]);
  const existing = new Map(found.map((m) => [m.id, m]));

  // Each message once; grouped by campaign (activation and links are per account).
  const groups = new Map<string, number[]>();
  const firsts = new Map<string, number>();
  const suppressed: number[] = [];
  events.forEach((e, i) => {
    const id = ids[i]!;
    if (firsts.has(id)) return; // answered as its first occurrence, below
    firsts.set(id, i);
    // On the suppression list (also a reminder's recipient): recorded as opted out, before any
    // claim, activation or provider. One whose attempt certainly did not send is not tried again.
    if (optedOut.get(e.accountId)?.has(e.recipient.phone)) {
      if (!existing.has(id)) suppressed.push(i);
      else results[i] = existing.get(id)!.status === 'retryable' ? 'opted_out' : 'already_handled';
      return;
    }
    const provider = providers.get(e.accountId)!;
    // Before the claim: the claim is taken for the provider that then gets the message.
    if (provider instanceof Error) return void (results[i] = provider);
    // Handled already (a redelivered event does not activate the link again), unless resumable.
    const record = existing.get(id);
    if (record && !isResumable(record, provider)) return void (results[i] = 'already_handled');
    pushTo(groups, `${e.accountId}/${e.campaignId}/${e.reminder}`, i);
  });

  const ready: Ready[] = [];
  await Promise.all([
    recordOptedOut(deps, events, ids, suppressed, results).catch((err: unknown) => {
      for (const i of suppressed) results[i] ??= asError(err);
    }),
    ...[...groups.values()].map(async (indexes) => {
      try {
        ready.push(...(await prepare(deps, events, indexes, results)));
      } catch (err) {
        // A whole call refused for good may be one event's doing: each goes again alone, where
        // the refusal is that event's own.
        const shared = indexes.length > 1 && isPermanentFailure(err);
        for (const i of indexes)
          results[i] ??= shared ? new Error(`a call for ${indexes.length} events was refused: ${asError(err).message}`) : asError(err);
      }
    }),
  ]);

  // One hand-over per provider: usually the deployment's alone, or an account's own as well.
  const now = deps.clock.now();
  const byProvider = new Map<SmsProvider, (Ready & { msg: NewMessage })[]>();
  for (const r of ready) {
    const event = events[r.index]!;
    const provider = providers.get(event.accountId) as SmsProvider;
    pushTo(byProvider, provider, { ...r, msg: newMessage(r, event, ids[r.index]!, provider, now) });
  }
  // Refused for good before any provider (a peer's INVALID_ARGUMENT, a vanished campaign): the
  // recipient is recorded failed with the reason at once, in the same round as the hand-overs.
  const refused = results.flatMap((r, i) => (isPermanentFailure(r) ? [i] : []));
  await Promise.all([
    recordRefused(deps, events, refused, results).catch((err: unknown) => {
      for (const i of refused) results[i] = asError(err);
    }),
    ...[...byProvider].map(async ([provider, items]) => {
      try {
        await handOver(deps, provider, items, existing, events, results);
      } catch (err) {
        // Whatever a failed hand-over leaves is retried, and its claims keep it at most once.
        for (const { index } of items) results[index] ??= asError(err);
      }
    }),
  ]);

  const answers = events.map((_, i) => {
    const first = firsts.get(ids[i]!)!;
    const result = results[first] ?? new Error('the sms.dispatch event reached no outcome');
    return first === i || result instanceof Error ? result : 'already_handled';
  });
  // The sharings' hint for sharing.completed: first messages this batch settled.
  await noteSettledFirsts(
    deps,
    events.flatMap((e, i) => (!e.reminder && settles(answers[i]!) ? [e.sharingId] : [])),
  );
  return answers;
}

/** Outcomes that settle a first message (SETTLED_STATUSES); `already_handled` was counted when it was handled. */
const SETTLES: ReadonlySet<SendOutcome> = new Set(['sent', 'unknown', 'failed', 'opted_out']);
const settles = (r: DispatchResult) => (r instanceof UndeliverableEventError ? r.settled : !(r instanceof Error) && SETTLES.has(r));

/**
 * The records of events refused for good, status `failed` with the reason, in one insert that
 * leaves an existing record alone, and their statuses published; each answer becomes an
 * UndeliverableEventError (dead-lettered at once by the consumer), settled when its record was stored.
 */
async function recordRefused(deps: Deps, events: DispatchEvent[], indexes: number[], results: (DispatchResult | undefined)[]) {
  if (indexes.length === 0) return;
  const at = deps.clock.now();
  const reasons = indexes.map((i) => (results[i] as Error).message.slice(0, MAX_REASON));
  const records = indexes.map((i, k) => {
    const e = events[i]!;
    return unsentRecord({ ...e, phone: e.recipient.phone, status: 'failed', error: reasons[k], at });
  });
  const stored = await deps.messages.recordMany(records);
  await deps.statusEvents.changedMany(records.filter((_, k) => stored[k]));
  indexes.forEach((i, k) => {
    const err = new UndeliverableEventError(`refused for good: ${reasons[k]}`, { cause: results[i] });
    err.settled = stored[k] === true;
    results[i] = err;
  });
}

/**
 * A message record that may be handed over again: its attempt certainly did not send, or the
 * provider absorbs a repeat: the same idempotent provider that claimed it (the account's provider
 * may have changed since; another one would get the message a second time).
 */
const isResumable = (m: SmsMessage, provider: SmsProvider) =>
  m.status === 'retryable' || (m.status === 'sending' && provider.idempotent === true && m.provider === provider.name);

type Ready = { index: number; campaign: SmsCampaign; text: string; link: string };

/** The provider of each account of the events, or the error its read failed with (never the deployment's instead). */
async function providersOf(deps: Deps, events: DispatchEvent[]): Promise<Map<string, SmsProvider | Error>> {
  const found = new Map<string, SmsProvider | Error>();
  await Promise.all(
    [...new Set(events.map((e) => e.accountId))].map(async (accountId) => {
      found.set(accountId, await deps.providers.forAccount(accountId).catch(asError));
    }),
  );
  return found;
}

/** The opted-out phones among the events', per account: one query per account of the batch. */
async function optedOutOf(deps: Deps, events: DispatchEvent[]): Promise<Map<string, Set<string>>> {
  const phones = new Map<string, Set<string>>();
  for (const e of events) {
    const set = phones.get(e.accountId);
    if (set) set.add(e.recipient.phone);
    else phones.set(e.accountId, new Set([e.recipient.phone]));
  }
  const found = new Map<string, Set<string>>();
  await Promise.all(
    [...phones].map(async ([accountId, set]) => found.set(accountId, await deps.optOuts.findOptedOut(accountId, [...set]))),
  );
  return found;
}

/**
 * The opted-out events' records, status `opted_out`, in one insert that leaves an existing record
 * alone (a concurrent consumer's), and their statuses published like every other change.
 */
async function recordOptedOut(
  deps: Deps,
  events: DispatchEvent[],
  ids: string[],
  indexes: number[],
  results: (DispatchResult | undefined)[],
) {
  if (indexes.length === 0) return;
  const at = deps.clock.now();
  const records = indexes.map((i) => {
    const e = events[i]!;
    return unsentRecord({ ...e, phone: e.recipient.phone, status: 'opted_out', at });
  });
  const stored = await deps.messages.recordMany(records);
  await deps.statusEvents.changedMany(records.filter((_, k) => stored[k]));
  indexes.forEach((i, k) => (results[i] = stored[k] ? 'opted_out' : 'already_handled'));
}

/** The texts of one campaign's events: their links activated and shortened in one call each; failures set in `results`. */
async function prepare(deps: Deps, events: DispatchEvent[], indexes: number[], results: (DispatchResult | undefined)[]) {
  const first = events[indexes[0]!]!;
  const campaign = await deps.campaigns.findById(first.accountId, first.campaignId);
  if (!campaign) {
    for (const i of indexes)
      results[i] = new UndeliverableEventError(`campaign ${first.campaignId} of account ${first.accountId} does not exist`);
    return [];
  }
  if (first.reminder > 0) return prepareReminders(deps, campaign, events, indexes, results);
  const activated = await deps.links.activateMany(indexes.map((i) => activationOf(events[i]!, campaign)));
  const live: { index: number; url: string }[] = [];
  indexes.forEach((index, k) => {
    const url = activated[k];
    if (typeof url === 'string') live.push({ index, url });
    else results[index] = url ?? new Error('no activation answered');
  });
  if (live.length === 0) return [];
  const short = await deps.shortener.shortenMany(
    live.map((l) => l.url),
    first.accountId,
  );
  return live.flatMap(({ index }, k): Ready[] => {
    try {
      return [{ index, campaign, text: smsText(campaign, events[index]!, short[k]!), link: short[k]! }];
    } catch (err) {
      // The same template and attributes render the same way every time: no retry mends it.
      results[index] = new UndeliverableEventError(`the message could not be rendered: ${asError(err).message}`);
      return [];
    }
  });
}

/** The survey link activation the recipient's SMS needs. */
const activationOf = (event: DispatchEvent, campaign: SmsCampaign): LinkActivation => ({
  accountId: event.accountId,
  channelId: campaign.channelId,
  phone: event.recipient.phone,
  attributes: event.recipient.attributes,
  builtInResponses: event.recipient.builtInResponses,
});

/** The campaign's template for the recipient (sms-text.ts: the link wins, and is never transliterated). */
const smsText = (campaign: SmsCampaign, event: DispatchEvent, link: string) =>
  renderSms(campaign.messageTemplate, event.recipient.attributes, link, campaign);

/** A reminder's texts (reminder-texts.ts); one that does not go out is answered "skipped" and leaves no record. */
async function prepareReminders(
  deps: Deps,
  campaign: SmsCampaign,
  events: DispatchEvent[],
  indexes: number[],
  results: (DispatchResult | undefined)[],
): Promise<Ready[]> {
  const texts = await reminderTexts(
    deps,
    campaign,
    indexes.map((i) => events[i]!),
    (template, event, link) => renderSms(template, event.recipient.attributes, link, campaign),
  );
  return indexes.flatMap((index, k): Ready[] => {
    const t = texts[k]!;
    if ('skipped' in t) {
      results[index] = 'skipped';
      return [];
    }
    return [{ index, campaign, text: t.text, link: t.link }];
  });
}

/** The record of a message about to be handed over, with what its final text costs at that provider. */
const newMessage = (r: Ready, event: DispatchEvent, id: string, provider: SmsProvider, now: Date): NewMessage => ({
  ...costAt(provider, r.text),
  id,
  accountId: event.accountId,
  sharingId: event.sharingId,
  campaignId: r.campaign.id,
  phone: event.recipient.phone,
  text: r.text,
  provider: provider.name,
  deliveryRule: provider.deliveryRule,
  createdAt: now,
  link: r.link,
  ...(event.reminder > 0 && { reminder: event.reminder }),
});

/** One provider's messages: claimed, handed over and finished, each result set in `results`. */
async function handOver(
  deps: Deps,
  provider: SmsProvider,
  ready: (Ready & { msg: NewMessage })[],
  existing: Map<string, SmsMessage>,
  events: DispatchEvent[],
  results: (DispatchResult | undefined)[],
): Promise<void> {
  let fresh = ready.filter((r) => !existing.has(r.msg.id));
  const resumed = ready.filter((r) => existing.has(r.msg.id));
  if (provider.idempotent === true && provider.sendMany && fresh.length > 0) {
    const handed = await handOverFirst(
      deps,
      provider,
      fresh.map((r) => r.msg),
    );
    fresh.forEach(({ index }, k) => (results[index] = handed[k]));
    fresh = [];
  }

  const [freshClaims, resumedClaims] = await Promise.all([
    fresh.length > 0 ? deps.messages.claimMany(fresh.map((r) => r.msg)) : Promise.resolve([]),
    // A resumed record is taken again by one caller only (a conditional update).
    Promise.all(resumed.map((r) => deps.messages.claim(r.msg, { takeOverSending: provider.idempotent === true }))),
  ]);
  const tried = [...fresh, ...resumed];
  const answers = [...freshClaims, ...resumedClaims];
  // A claim lost to a concurrent consumer: that one sends it.
  const claimed = tried.flatMap((r, k) => (answers[k] ? [{ ...r, msg: answers[k] }] : []));
  tried.forEach((r, k) => {
    if (!answers[k]) results[r.index] = 'already_handled';
  });
  if (claimed.length === 0) return;

  const finish = async () => {
    const answered = await sendAll(
      provider,
      claimed.map(({ msg }) => outgoing(msg, provider)),
    );
    const at = deps.clock.now();
    await deps.messages.finishMany(claimed.map(({ msg }, k) => ({ id: msg.id, attempt: msg.attempts, at, ...finishing(answered[k]!) })));
    claimed.forEach(({ index }, k) => (results[index] = resultOf(answered[k]!, provider)));
    // As stored (a delivery report may have overtaken the provider's answer), also after a
    // retriable refusal, so watchers see every attempt.
    await deps.statusEvents.changedMany(await deps.messages.findMany(claimed.map(({ msg }) => msg.id)));
  };
  const [tracker, publisher] = [deps.handOvers, deps.dispatch];
  // The idempotent provider (the recording one) needs its events redelivered after a crash to
  // resume a claim: its hand-overs are always awaited (it answers at once anyway).
  if (!tracker || !publisher || provider.idempotent === true) return finish();
  const running = finish();
  if (await finishedWithin(running, tracker.budgetMs)) {
    // A refusal for now is retried by publishing the event again after a backoff: a retry in
    // place would hold the consumer's fetch, every account's events with it.
    for (const { index, msg } of claimed) {
      if (!(results[index] instanceof RetriableSendError)) continue;
      results[index] = retryLater(tracker, publisher, events[index]!, msg.attempts) ? 'retrying' : giveUp(msg.attempts);
    }
    return;
  }
  // A slow provider that is not idempotent: its claims are taken, so a redelivery would never
  // send these again (at most once) and committing their events loses nothing. The hand-over goes
  // on in the background, and the consumer moves on to other accounts' events.
  const adopted = tracker.adopt(
    running.then(
      () => afterDetached(deps, tracker, publisher, claimed, events, results),
      () => undefined, // the claims stay `sending`, as after a crash mid-hand-over
    ),
  );
  if (!adopted) return running; // at capacity: wait, as without a tracker
  for (const { index } of claimed) results[index] = 'in_flight';
}

/** True when `work` settled within `ms` (its failure is the caller's to see); it goes on either way. */
async function finishedWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the consumer does after an awaited hand-over, for one left running: the sharings' note of
 * settled first messages, and a refusal for now retried by publishing its event again after a
 * backoff (the record is `retryable`, so the next attempt claims it), until maxAttempts.
 */
async function afterDetached(
  deps: Deps,
  tracker: HandOverTracker,
  publisher: DispatchPublisher,
  claimed: { index: number; msg: SmsMessage }[],
  events: DispatchEvent[],
  results: (DispatchResult | undefined)[],
): Promise<void> {
  await noteSettledFirsts(
    deps,
    claimed.flatMap(({ index }) => (!events[index]!.reminder && settles(results[index]!) ? [events[index]!.sharingId] : [])),
  );
  // Past maxAttempts it stays `retryable`, as a dead-lettered event's record does.
  for (const { index, msg } of claimed)
    if (results[index] instanceof RetriableSendError) retryLater(tracker, publisher, events[index]!, msg.attempts);
}

/** Publishes the event again after a backoff (1 s doubling to 10 s); false once it had maxAttempts. */
function retryLater(tracker: HandOverTracker, publisher: DispatchPublisher, event: DispatchEvent, attempts: number): boolean {
  if (attempts >= tracker.maxAttempts) return false;
  tracker.later(Math.min(10_000, 1_000 * 2 ** (attempts - 1)), async () => {
    const batch = publisher.batch();
    batch.add([event]);
    await batch.send();
  });
  return true;
}

/** The provider refused the message for now every time: dead-lettered, its record left `retryable`. */
const giveUp = (attempts: number) => new UndeliverableEventError(`the provider refused the message for now ${attempts} times`);

/**
 * An idempotent provider (the recording one) records each message once whatever it is handed,
 * so a fresh message needs no claim before the hand-over: the lot is handed over, then the
 * records are stored with their outcome in one write (a claim and its finish are two). A record
 * another consumer stored meanwhile stays as it is; the provider kept one copy. A throw stores
 * nothing: the retry hands the messages over again, which the provider absorbs.
 */
async function handOverFirst(deps: Deps, provider: SmsProvider, fresh: NewMessage[]): Promise<DispatchResult[]> {
  const answered = await provider.sendMany!(fresh.map((m) => outgoing(m, provider)));
  const at = deps.clock.now();
  const records: SmsMessage[] = fresh.map((m, k) => {
    const { status, providerMessageId, error } = finishing(answered[k]!);
    return { ...m, status, attempts: 1, providerMessageId: providerMessageId ?? null, error: error ?? null, updatedAt: at };
  });
  const stored = await deps.messages.recordMany(records);
  await deps.statusEvents.changedMany(records.filter((_, k) => stored[k]));
  return records.map((_, k) => (stored[k] ? resultOf(answered[k]!, provider) : 'already_handled'));
}

/** What a provider's answer makes of the message record: sent, unknown (maybe sent), failed, or retryable (certainly not sent). */
function finishing(r: ProviderResult): { status: 'sent' | 'retryable' | 'unknown' | 'failed'; providerMessageId?: string; error?: string } {
  switch (r.outcome) {
    case 'accepted':
      return { status: 'sent', providerMessageId: r.providerMessageId };
    case 'unknown':
      return { status: 'unknown', error: r.reason };
    case 'rejected':
      return { status: r.retriable ? 'retryable' : 'failed', error: r.reason };
  }
}

/** The event's result: a retriable refusal is an error, so the consumer retries it with backoff. */
function resultOf(r: ProviderResult, provider: SmsProvider): DispatchResult {
  const { status, error } = finishing(r);
  // Logged with every retry: neither the message id (it holds the phone) nor the provider's answer
  // body (it may echo the phone or the text), only what comes before its first colon ("HTTP 503").
  const why = (error ?? '').split(':')[0]!.slice(0, 100);
  return status === 'retryable' ? new RetriableSendError(`provider ${provider.name} refused the message for now: ${why}`) : status;
}

/** The encoding and segments of a text as the provider sends it (gsm7-tr only where it declares the shift table). */
function costAt(provider: SmsProvider, text: string): { encoding: SmsEncoding; segments: number } {
  const { encoding, segments } = smsCost(text, { turkishShift: provider.turkishShiftTable === true });
  return { encoding, segments };
}

const outgoing = (m: NewMessage, provider: SmsProvider): OutgoingSms => ({
  messageId: m.id,
  accountId: m.accountId,
  sharingId: m.sharingId,
  to: m.phone,
  text: m.text,
  // Every record this dispatcher claims has its cost; computed again only for one claimed before it was kept.
  ...(m.encoding && m.segments !== undefined ? { encoding: m.encoding, segments: m.segments } : costAt(provider, m.text)),
});

/**
 * The provider's bulk send when it has one; else one hand-over each, a few at a time. A throw
 * (a provider adapter that broke its contract) is an unknown outcome: whether it sent is unknown.
 */
async function sendAll(provider: SmsProvider, sms: OutgoingSms[]): Promise<ProviderResult[]> {
  const unknown = (err: unknown): ProviderResult => ({ outcome: 'unknown', reason: (err as Error).message });
  if (provider.sendMany) {
    try {
      return await provider.sendMany(sms);
    } catch (err) {
      return sms.map(() => unknown(err));
    }
  }
  const answered = new Array<ProviderResult>(sms.length);
  let next = 0;
  const worker = async () => {
    while (next < sms.length) {
      const i = next++;
      answered[i] = await provider.send(sms[i]!).catch(unknown);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, sms.length) }, worker));
  return answered;
}

/** Appends to the key's list (a batch of 200 events of one campaign is one list, grown in place). */
function pushTo<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
