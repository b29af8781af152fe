import type { MessagingDeps } from './ports.js';
import type { DispatchEvent } from './sharing.js';

type Deps = Pick<MessagingDeps, 'sharings' | 'messages' | 'completions' | 'clock'>;

/** A sharing, named as its events name it (the account's own). */
export interface SharingRef {
  accountId: string;
  sharingId: string;
}

/**
 * Raises `sharing.completed` when every accepted recipient's first message is settled
 * (SETTLED_STATUSES: handed to the provider, or certainly never sent); reminders do not count.
 * One indexed count against the sharing's `accepted`, and the counts by status only once it is
 * complete. Answers whether it raised the event.
 *
 * Whoever may have settled the last message asks: the dispatch consumer after each batch, for
 * each sharing of the batch's first messages (its count follows its own writes, so the batch that
 * settles the last one sees them all), and a cancel. So the event may be raised more than once
 * (two dispatcher replicas, a redelivered batch, a cancel after the end): each repeat carries the
 * same event id. A failed publish throws; the caller retries (docs/api.md "Webhooks").
 */
export async function raiseIfComplete(deps: Deps, ref: SharingRef): Promise<boolean> {
  const sharing = await deps.sharings.findById(ref.accountId, ref.sharingId);
  if (!sharing || sharing.accepted === 0) return false;
  if ((await deps.messages.countSettledFirsts(sharing.id)) < sharing.accepted) return false;
  const counts = await deps.messages.settledFirstsByStatus(sharing.id);
  await deps.completions.completed({
    sharingId: sharing.id,
    accountId: sharing.accountId,
    campaignId: sharing.campaignId,
    accepted: sharing.accepted,
    counts,
    completedAt: deps.clock.now(),
  });
  return true;
}

/** The sharings of the events' first messages, each once (a reminder settles no first message). */
export function sharingsOf(events: readonly DispatchEvent[]): SharingRef[] {
  const found = new Map<string, SharingRef>();
  for (const e of events) if (e.reminder === 0) found.set(e.sharingId, { accountId: e.accountId, sharingId: e.sharingId });
  return [...found.values()];
}

/**
 * raiseIfComplete for each sharing, all asked even when one fails: answers the sharings whose
 * count or publish failed (with the first error), for the caller to retry.
 */
export async function raiseCompletions(deps: Deps, sharings: SharingRef[]): Promise<{ failed: SharingRef[]; error?: Error }> {
  const outcomes = await Promise.allSettled(sharings.map((s) => raiseIfComplete(deps, s)));
  const failed = sharings.filter((_, i) => outcomes[i]!.status === 'rejected');
  const first = outcomes.find((o) => o.status === 'rejected');
  return first ? { failed, error: asError(first.reason) } : { failed };
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
