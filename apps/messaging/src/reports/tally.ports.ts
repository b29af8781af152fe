import type { Clock } from '../shared/ports.js';
import type { Increment, OwedEntry, OwedRecord } from './domain/tally.js';

/** The entries one relay round took from one record: what it pulls once they are counted. */
export interface TakenEntries {
  kind: OwedRecord['kind'];
  id: string;
  owed: OwedEntry[];
}

/** One relay round, written before any counter moves: a crash anywhere after is finished from it. */
export interface TallyJournalEntry {
  token: string;
  createdAt: Date;
  increments: Increment[];
  records: TakenEntries[];
}

/** Journals of relay rounds not finished yet (collection `tally_journal`). */
export interface TallyJournal {
  /** Rounds left by a crash (or a failed write), oldest first. */
  unfinished(): Promise<TallyJournalEntry[]>;
  open(j: TallyJournalEntry): Promise<void>;
  close(token: string): Promise<void>;
}

/** The counter documents (`campaign_tallies`, `sharing_tallies`). */
export interface TallyCounters {
  /** Adds each increment once per token: a repeat of the same token changes nothing. */
  apply(token: string, increments: Increment[]): Promise<void>;
}

/** The records (message records, sharings) that owe entries. */
export interface OwedTallies {
  /** Up to `limit` records with owed entries, with them. */
  take(limit: number): Promise<OwedRecord[]>;
  /** Removes exactly these entries from their records (entries owed since stay). */
  settle(records: TakenEntries[]): Promise<void>;
}

export interface ReportsDeps {
  journal: TallyJournal;
  counters: TallyCounters;
  owed: OwedTallies;
  clock: Clock;
  newToken: () => string;
}
