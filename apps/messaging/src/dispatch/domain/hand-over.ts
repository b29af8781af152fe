import type { DispatchDeps, HandOverTracker } from '../ports.js';
import type { DispatchPublisher } from '../../shared/ports.js';
import type { SmsProvider } from '../../providers/ports.js';
import type { NewMessage } from '../../shared/ports.js';
import type { DispatchEvent } from '../../shared/domain/sharing.js';
import type { SmsMessage } from '../../shared/domain/sms-message.js';
import { noteSettledFirsts } from '../../status/domain/sharing-completion.use-cases.js';
import { RetriableSendError, settles, UndeliverableEventError, type DispatchResult } from './dispatch-results.js';
import type { Ready } from './message-texts.js';
import { finishing, outgoing, resultOf, sendAll } from './provider-answers.js';

type Deps = Pick<DispatchDeps, 'sharings' | 'messages' | 'statusEvents' | 'clock' | 'handOvers'>;

/** One provider's messages: claimed, handed over and finished, each result set in `results`. */
export async function handOver(
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
    await deps.messages.finishMany(
      claimed.map(({ msg }, k) => ({ id: msg.id, attempt: msg.attempts, at, segments: msg.segments, ...finishing(answered[k]!) })),
    );
    claimed.forEach(({ index }, k) => (results[index] = resultOf(answered[k]!, provider)));
    // As stored (a delivery report may have overtaken the provider's answer), also after a
    // retriable refusal, so watchers see every attempt.
    await deps.statusEvents.changedMany(await deps.messages.findMany(claimed.map(({ msg }) => msg.id)));
  };
  const tracker = deps.handOvers?.tracker;
  const publisher = deps.handOvers?.republish;
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
