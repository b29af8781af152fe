import { randomUUID } from 'node:crypto';
import { systemClock, type Logger } from '@feedback/kit-core';
import { outboxBacklogMetrics } from '@feedback/kit-metrics';
import { MongoLease, startPeriodicJob, type PeriodicJob } from '@feedback/kit-stores';
import type { Db } from 'mongodb';
import { MongoOwedTallies } from './adapters/mongo/owed-tallies.repository.js';
import { MongoTallyCounters } from './adapters/mongo/tally-counters.repository.js';
import { MongoTallyJournal } from './adapters/mongo/tally-journal.repository.js';
import { RELAY_BATCH, relayTallies } from './domain/tally-relay.use-cases.js';
import type { ReportsDeps } from './tally.ports.js';

/** The relay's adapters over the messaging database (the integration tests use them too). */
export function tallyDeps(db: Db): ReportsDeps & { owed: MongoOwedTallies } {
  return {
    journal: new MongoTallyJournal(db),
    counters: new MongoTallyCounters(db),
    owed: new MongoOwedTallies(db),
    clock: systemClock,
    newToken: randomUUID,
  };
}

/**
 * The campaign report's relay (domain/tally-relay.use-cases.ts) every `intervalMs`, on the replica
 * that holds the `tally_relay` lease: exactly once needs one relay at a time. The lease is short
 * (ten intervals, at least 5 s), so a replica killed mid-round is replaced within seconds; the
 * journal makes the round it left finish exactly once. Its backlog is the `tally_owed` outbox's metric (outbox_pending, outbox_oldest_age_seconds).
 */
export function startTallyRelay(o: { db: Db; intervalMs: number; logger: Logger }): PeriodicJob {
  const deps = tallyDeps(o.db);
  outboxBacklogMetrics('tally_owed', () => deps.owed.backlog());
  const leaseMs = Math.max(5_000, 10 * o.intervalMs);
  return startPeriodicJob({
    name: 'report-tally-relay',
    everyMs: o.intervalMs,
    jitter: 0.1,
    lease: new MongoLease(o.db, 'tally_relay', 'tally_lease'),
    leaseMs,
    logger: o.logger,
    // The lease was renewed just before the run: its journal is written in the lease's first half or not at all.
    run: () => relayTallies(deps, RELAY_BATCH, new Date(Date.now() + leaseMs / 2)),
  });
}
