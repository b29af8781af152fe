import type { ReportsDeps, TallyJournalEntry } from '../tally.ports.js';
import { increments } from './tally.js';

/** Records taken per round. */
export const RELAY_BATCH = 1_000;

/**
 * One round of the counters' relay, exactly once without transactions (docker-compose and many
 * installs run a standalone MongoDB, which has none): first any round a crash left in the journal
 * is finished, then up to `limit` records that owe entries are taken, their increments computed
 * and written to the journal as one document, and that round is finished. Finishing is
 * idempotent, so a crash at any point is repaired by running it again: each counter takes a
 * round's token once, and pulling the taken entries twice pulls nothing the second time.
 * One replica at a time (the caller's lease): two relays finishing one journal is harmless, two
 * taking the same entries into two journals would count them twice. So a round whose journal
 * would be written after `openBy` (well inside the lease) is dropped before it writes anything,
 * and the caller runs again after renewing its lease. Answers true when more may wait.
 */
export async function relayTallies(deps: ReportsDeps, limit = RELAY_BATCH, openBy?: Date): Promise<boolean> {
  for (const left of await deps.journal.unfinished()) await finishRound(deps, left);
  const taken = await deps.owed.take(limit);
  if (taken.length === 0) return false;
  if (openBy && deps.clock.now() > openBy) return true;
  const round: TallyJournalEntry = {
    token: deps.newToken(),
    createdAt: deps.clock.now(),
    increments: increments(taken),
    records: taken.map((r) => ({ kind: r.kind, id: r.id, owed: r.owed })),
  };
  await deps.journal.open(round);
  await finishRound(deps, round);
  return taken.length >= limit;
}

/** The journal's round applied: counters once per token, the taken entries pulled, the journal closed. */
export async function finishRound(deps: Pick<ReportsDeps, 'journal' | 'counters' | 'owed'>, round: TallyJournalEntry): Promise<void> {
  await deps.counters.apply(round.token, round.increments);
  await deps.owed.settle(round.records);
  await deps.journal.close(round.token);
}
