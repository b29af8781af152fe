import type { ClickFact, FactDeps } from '../ports.js';

/** One `link.clicked` record as decoded: a short link's code and when each of its clicks happened. */
export interface LinkClicks {
  code: string;
  /** Milliseconds since the epoch; the gateway publishes only the clicks people made (docs/api.md "Clicks"). */
  clickedAtMs: number[];
}

/**
 * The first click of each code among these records: the earliest time, since the records of one
 * batch may hold several clicks of a link (a record per link per publisher flush, and several
 * flushes or gateways per batch). A later batch's clicks are later ones, and the fact is set
 * only once anyway (`clicked_at: null` in the update).
 */
export function firstClicks(records: LinkClicks[]): ClickFact[] {
  const first = new Map<string, number>();
  for (const r of records) {
    for (const ms of r.clickedAtMs) {
      const seen = first.get(r.code);
      if (seen === undefined || ms < seen) first.set(r.code, ms);
    }
  }
  return [...first].map(([code, ms]) => ({ code, at: new Date(ms) }));
}

/**
 * Records the clicked fact on the first message of each clicked link: one conditional update per
 * code (the message record whose `link_code` it is and whose `clicked_at` is unset), so a
 * redelivered batch, a second click or a click of a link no message carries (another feature's,
 * or a record written before `link_code` was kept) changes nothing. Answers how many facts it set.
 */
export function recordClicks(deps: Pick<FactDeps, 'facts'>, records: LinkClicks[]): Promise<number> {
  const facts = firstClicks(records);
  return facts.length === 0 ? Promise.resolve(0) : deps.facts.recordClicks(facts);
}
