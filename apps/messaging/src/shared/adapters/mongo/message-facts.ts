import type { OwedEntry } from '../../../reports/domain/tally.js';
import type { MessageStatus } from '../../domain/sms-message.js';

/**
 * The campaign report's facts on a message record (reports/domain/tally.ts): each `<fact>_at` is
 * set once, by the write that records the fact, and the same write pushes the counters' owed
 * entry to `tally_owed`, which the relay takes (reports/domain/tally-relay.use-cases.ts).
 */
export interface FactFields {
  sent_at?: Date;
  delivered_at?: Date;
  failed_at?: Date;
  opted_out_at?: Date;
  tally_owed?: OwedEntry[];
}

/** The facts of a record inserted with `status` (one insert per record: the unique _id makes it once). */
export function insertedFacts(status: MessageStatus, at: Date, segments: number | undefined): FactFields {
  switch (status) {
    case 'sent':
      return { sent_at: at, tally_owed: [sentEntry(at, segments)] };
    case 'failed':
      return { failed_at: at, tally_owed: [{ f: 'failed', at }] };
    case 'opted_out':
      return { opted_out_at: at, tally_owed: [{ f: 'opted_out', at }] };
    default:
      return {};
  }
}

/**
 * The update of a claimed record's outcome (the claim's status and attempt in its filter: one
 * transition from `sending`, so once): sent or failed record their fact.
 */
export function finishedFacts(
  status: MessageStatus,
  at: Date,
  segments: number | undefined,
): { $set: FactFields; $push?: { tally_owed: OwedEntry } } {
  if (status === 'sent') return { $set: { sent_at: at }, $push: { tally_owed: sentEntry(at, segments) } };
  if (status === 'failed') return { $set: { failed_at: at }, $push: { tally_owed: { f: 'failed', at } } };
  return { $set: {} };
}

/**
 * A delivery report's facts: delivered or failed, and sent as well when the record has no
 * `sent_at` yet (a report overtook the provider's answer, or resolved an `unknown`: the provider
 * had accepted it). The caller's filter says which (`sent_at` set or not).
 */
export function reportedFacts(
  status: 'delivered' | 'failed',
  at: Date,
  firstSent: { segments: number | undefined } | null,
): { $set: FactFields; $push: { tally_owed: { $each: OwedEntry[] } } } {
  const entries: OwedEntry[] = firstSent ? [sentEntry(at, firstSent.segments)] : [];
  entries.push({ f: status, at });
  return {
    $set: { [`${status}_at`]: at, ...(firstSent && { sent_at: at }) },
    $push: { tally_owed: { $each: entries } },
  };
}

const sentEntry = (at: Date, segments: number | undefined): OwedEntry => ({ f: 'sent', at, seg: segments ?? 0 });
