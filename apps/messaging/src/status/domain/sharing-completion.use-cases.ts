import type { StatusDeps } from '../ports.js';
import type { SmsSharing } from '../../shared/domain/sharing.js';
import { SETTLED_STATUSES, type SettledStatus } from '../../shared/domain/sms-message.js';

type Deps = Pick<StatusDeps, 'sharings' | 'messages' | 'completions' | 'clock'>;

/**
 * Raises `sharing.completed` when every accepted recipient's first message is settled
 * (SETTLED_STATUSES: handed to the provider, or certainly never sent); reminders do not count.
 * The sharing's first messages are counted by status in one pass over its index. Answers whether
 * it raised the event; the caller notes it (markCompleted). Raised at least once: a sweep cut
 * short after the publish raises it again, under the same event id. A failed publish throws.
 */
export async function raiseIfComplete(deps: Deps, sharing: SmsSharing): Promise<boolean> {
  if (sharing.accepted === 0) return false;
  const byStatus = await deps.messages.firstsByStatus(sharing.id);
  const counts = Object.fromEntries(SETTLED_STATUSES.map((s) => [s, byStatus[s] ?? 0])) as Record<SettledStatus, number>;
  if (SETTLED_STATUSES.reduce((sum, s) => sum + counts[s], 0) < sharing.accepted) return false;
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

/**
 * Adds the first messages a dispatch batch or a cancel settled to their sharings' hint
 * (settledFirsts), in one write. A hint only: a failed note is left for the sweep's quiet rule.
 */
export async function noteSettledFirsts(deps: Pick<Deps, 'sharings' | 'clock'>, sharingIds: readonly string[]): Promise<void> {
  if (sharingIds.length === 0) return;
  const counts = new Map<string, number>();
  for (const id of sharingIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  await deps.sharings.noteSettled(counts, deps.clock.now()).catch(() => undefined);
}

/** How far back the sweep looks: a sharing not settled two days after it was due is left alone. */
export const COMPLETION_LOOKBACK_MS = 2 * 86_400_000;
/** Sharings looked at per sweep. */
const PER_SWEEP = 50;
/** A sharing whose hint has not moved for this long is counted even though the hint falls short. */
export const QUIET_MS = 2 * 60_000;
/** After a count that found it incomplete, a sharing is not counted again for this long unless its hint moved. */
export const RECOUNT_MS = 60_000;

/** What the leader keeps between sweeps: where the last one stopped, and when each sharing was last counted. */
export interface SweepState {
  /** The next sweep goes on after this one (null: from the oldest). */
  from: { createdAt: Date; id: string } | null;
  /** Sharings counted and found incomplete: when, and their hint then. */
  counted: Map<string, { at: number; hint: number }>;
}

export const newSweepState = (): SweepState => ({ from: null, counted: new Map() });

/**
 * One sweep, by the scheduler's leader (one process at a time): up to PER_SWEEP of the recent
 * sharings not completed yet, after `state.from` in creation order (round and round, so sharings
 * that never settle do not hide the others). A sharing is counted (raiseIfComplete) only when its
 * hint says every first message is settled, or the hint has not moved for QUIET_MS (a crash lost a
 * note); after a count that found it incomplete, again only once the hint moves or RECOUNT_MS
 * passed. So a sharing's messages
 * are counted about once, however long its dispatch. Answers the sharings raised.
 */
export async function raiseCompletedSharings(deps: Deps, state: SweepState): Promise<number> {
  const now = deps.clock.now();
  const t = now.getTime();
  const open = await deps.sharings.incomplete({
    since: new Date(t - COMPLETION_LOOKBACK_MS),
    now,
    after: state.from,
    limit: PER_SWEEP,
  });
  let raised = 0;
  for (const sharing of open) {
    const hint = sharing.settledFirsts ?? 0;
    const last = state.counted.get(sharing.id);
    if (last && last.hint === hint && t - last.at < RECOUNT_MS) continue;
    const settled = hint >= sharing.accepted;
    const movedAt = (sharing.progressedAt ?? sharing.scheduledFor ?? sharing.createdAt).getTime();
    if (!settled && t - movedAt < QUIET_MS) continue;
    if (!(await raiseIfComplete(deps, sharing))) {
      state.counted.set(sharing.id, { at: t, hint });
      continue;
    }
    await deps.sharings.markCompleted(sharing.id, deps.clock.now());
    state.counted.delete(sharing.id);
    raised++;
  }
  const end = open.length === PER_SWEEP ? open[open.length - 1]! : null;
  state.from = end && { createdAt: end.createdAt, id: end.id };
  for (const [id, c] of state.counted) if (t - c.at > COMPLETION_LOOKBACK_MS) state.counted.delete(id);
  return raised;
}
