import type { Logger } from '@feedback/kit-core';
import type { OptOutRepository } from '../ports.js';
import type { OptOutChanges } from './mongo/opt-out.repository.js';
import { REMOVALS_KEPT_MS } from './mongo/opt-out.repository.js';

/** What the snapshots read from the store beside the repository's own calls. */
export interface OptOutFeed {
  allPhones(accountId: string): Promise<string[]>;
  changesSince(accountId: string, since: Date): Promise<OptOutChanges>;
}

/**
 * A change stamped at time T (by its writer's clock) may commit a little after another process
 * read past T, or come from a clock a little behind: each catch-up reads again from this long
 * before the previous one began (re-applying a change is harmless).
 */
const OVERLAP_MS = 2_000;

interface Snapshot {
  phones: Set<string>;
  /** The next catch-up reads the changes stamped after this. */
  readFrom: number;
  /** When the snapshot last caught up (a snapshot unused for REMOVALS_KEPT_MS cannot catch up any more). */
  caughtUp: number;
  /** The catch-up under way: concurrent lookups share it. */
  catchingUp?: Promise<void>;
}

/**
 * The suppression lists, kept in this process per account so a sharing's 5,000 phones and every
 * dispatch batch are checked in memory instead of by a query of 1,000 phones each (on the local
 * database, 30-60 ms for a list of 100,000 phones). Exact, not a cache with a lifetime: every
 * lookup first catches up with what changed on the account's list since the snapshot's newest
 * change (two indexed reads that are usually empty, phones added and phones removed, the latter
 * from a log kept a day), so a phone added or removed by any process counts at once.
 *
 * An account's snapshot is loaded in the background on its first lookup (a list of 100,000 phones
 * takes the local database 2-3 s); until it is there, and for an account whose list alone is
 * larger than `maxPhones`, lookups go to the database as before. The snapshots together hold at
 * most `maxPhones` phones (about 55 bytes each), the least recently used account dropped first.
 */
export class OptOutSnapshots implements OptOutRepository {
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly tooLarge = new Set<string>();

  constructor(
    private readonly inner: OptOutRepository,
    private readonly feed: OptOutFeed,
    private readonly opts: { maxPhones: number; logger: Logger; now?: () => number },
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  async findOptedOut(accountId: string, phones: string[]): Promise<Set<string>> {
    if (phones.length === 0) return new Set();
    const snapshot = await this.current(accountId);
    if (!snapshot) return this.inner.findOptedOut(accountId, phones);
    return new Set(phones.filter((p) => snapshot.phones.has(p)));
  }

  /** The account's snapshot caught up with its list, or null when lookups must go to the database. */
  private async current(accountId: string): Promise<Snapshot | null> {
    const snapshot = this.snapshots.get(accountId);
    if (!snapshot || this.now() - snapshot.caughtUp > REMOVALS_KEPT_MS / 2) {
      if (snapshot) this.snapshots.delete(accountId);
      this.load(accountId);
      return null;
    }
    // Most recently used last: the first key is the one to drop.
    this.snapshots.delete(accountId);
    this.snapshots.set(accountId, snapshot);
    snapshot.catchingUp ??= this.catchUp(accountId, snapshot).finally(() => (snapshot.catchingUp = undefined));
    await snapshot.catchingUp;
    return snapshot;
  }

  /** Applies what changed since the previous catch-up (two indexed reads, usually empty). */
  private async catchUp(accountId: string, snapshot: Snapshot): Promise<void> {
    const started = this.now();
    apply(snapshot, await this.feed.changesSince(accountId, new Date(snapshot.readFrom)));
    snapshot.readFrom = Math.max(snapshot.readFrom, started - OVERLAP_MS);
    snapshot.caughtUp = started;
  }

  /** Loads the account's snapshot in the background, once at a time; a failure leaves lookups on the database. */
  private load(accountId: string): void {
    if (this.loading.has(accountId) || this.tooLarge.has(accountId)) return;
    const started = this.now();
    const job = (async () => {
      const phones = await this.feed.allPhones(accountId);
      if (phones.length > this.opts.maxPhones) {
        this.tooLarge.add(accountId);
        return;
      }
      const snapshot: Snapshot = { phones: new Set(phones), readFrom: started - OVERLAP_MS, caughtUp: started };
      // What changed while the list was read (from before the read began).
      await this.catchUp(accountId, snapshot);
      let held = phones.length;
      for (const s of this.snapshots.values()) held += s.phones.size;
      for (const [id, s] of this.snapshots) {
        if (held <= this.opts.maxPhones) break;
        this.snapshots.delete(id);
        held -= s.phones.size;
      }
      this.snapshots.set(accountId, snapshot);
    })()
      .catch((err: unknown) =>
        this.opts.logger.warn({ err, account_id: accountId }, 'opt-out snapshot not loaded; lookups stay on the database'),
      )
      .finally(() => this.loading.delete(accountId));
    this.loading.set(accountId, job);
  }

  /** Waits for the account's snapshot to be loaded (tests). */
  async ready(accountId: string): Promise<void> {
    await this.current(accountId);
    await this.loading.get(accountId);
  }

  async addMany(e: Parameters<OptOutRepository['addMany']>[0]): Promise<boolean[]> {
    return this.inner.addMany(e);
  }

  list(q: Parameters<OptOutRepository['list']>[0]) {
    return this.inner.list(q);
  }

  remove(accountId: string, phone: string): Promise<boolean> {
    return this.inner.remove(accountId, phone);
  }
}

/** Applies adds and removals in the order they happened (a phone removed and added again is on the list). */
function apply(snapshot: Snapshot, changes: OptOutChanges): void {
  const events = [...changes.added.map((c) => ({ ...c, on: true })), ...changes.removed.map((c) => ({ ...c, on: false }))].sort(
    (a, b) => a.at.getTime() - b.at.getTime() || Number(a.on) - Number(b.on),
  );
  for (const e of events) {
    if (e.on) snapshot.phones.add(e.phone);
    else snapshot.phones.delete(e.phone);
  }
}
