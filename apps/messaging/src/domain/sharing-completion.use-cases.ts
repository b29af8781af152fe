import type { MessagingDeps } from './ports.js';
import type { SmsSharing } from './sharing.js';

type Deps = Pick<MessagingDeps, 'sharings' | 'messages' | 'completions' | 'clock'>;

/**
 * Raises `sharing.completed` when every accepted recipient's first message is settled
 * (SETTLED_STATUSES: handed to the provider, or certainly never sent); reminders do not count.
 * First a count of the sharing's messages over its index alone (fewer than accepted: some
 * recipient has none yet), then the settled first messages, and the counts by status only once
 * it is complete. Answers whether it raised the event; the caller notes it (markCompleted).
 * Raised at least once: a sweep cut short after the publish raises it again, under the same
 * event id. A failed publish throws.
 */
export async function raiseIfComplete(deps: Deps, sharing: SmsSharing): Promise<boolean> {
  if (sharing.accepted === 0) return false;
  if ((await deps.messages.countOfSharing(sharing.id)) < sharing.accepted) return false;
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

/** How far back the sweep looks: a sharing not settled two days after it was due is left alone. */
export const COMPLETION_LOOKBACK_MS = 2 * 86_400_000;
/** Sharings looked at per sweep. */
const PER_SWEEP = 50;

/** Where a sweep stopped: the next one goes on after it (null: from the oldest). */
export type SweepCursor = { createdAt: Date; id: string } | null;

/**
 * One sweep, by the scheduler's leader (one process at a time): up to PER_SWEEP of the recent
 * sharings not completed yet, after `from` in creation order, each raised and noted once all its
 * first messages are settled. Sweeps go round the open sharings from oldest to newest and start
 * over, so sharings that never settle (a provider down for days) do not hide the others. A sharing
 * is counted once per sweep, not after every dispatch batch, so a sharing's dispatch costs the
 * database a few counts whatever its size. Answers the sharings raised and where to go on.
 */
export async function raiseCompletedSharings(deps: Deps, from: SweepCursor = null): Promise<{ raised: number; next: SweepCursor }> {
  const now = deps.clock.now();
  const open = await deps.sharings.incomplete({
    since: new Date(now.getTime() - COMPLETION_LOOKBACK_MS),
    now,
    after: from,
    limit: PER_SWEEP,
  });
  let raised = 0;
  for (const sharing of open) {
    if (!(await raiseIfComplete(deps, sharing))) continue;
    await deps.sharings.markCompleted(sharing.id, deps.clock.now());
    raised++;
  }
  const last = open.length === PER_SWEEP ? open[open.length - 1]! : null;
  return { raised, next: last && { createdAt: last.createdAt, id: last.id } };
}
