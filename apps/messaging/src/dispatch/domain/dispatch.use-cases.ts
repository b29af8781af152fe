import type { DispatchDeps } from '../ports.js';
import type { SmsProvider } from '../../providers/ports.js';
import type { NewMessage } from '../../shared/ports.js';
import type { DispatchEvent } from '../../shared/domain/sharing.js';
import { messageId, unsentRecord, type SmsMessage } from '../../shared/domain/sms-message.js';
import { noteSettledFirsts } from '../../status/domain/sharing-completion.use-cases.js';
import { asError, isPermanentFailure, settles, UndeliverableEventError, type DispatchResult } from './dispatch-results.js';
import { handOver } from './hand-over.js';
import { prepare, type Ready } from './message-texts.js';
import { newMessage } from './provider-answers.js';

type Deps = Pick<
  DispatchDeps,
  'campaigns' | 'sharings' | 'links' | 'shortener' | 'messages' | 'providers' | 'statusEvents' | 'clock' | 'optOuts' | 'handOvers'
>;

/** Longest reason kept on a failed record. */
const MAX_REASON = 500;

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

/** Appends to the key's list (a batch of 200 events of one campaign is one list, grown in place). */
function pushTo<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}
