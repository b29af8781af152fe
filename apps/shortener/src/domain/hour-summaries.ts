import { CLICK_LISTS, type ClickList, type LinkHour, type LinkHoursSummary, type NameCounts } from './link-hours.ports.js';

const emptyLists = () => Object.fromEntries(CLICK_LISTS.map((l) => [l, {} as NameCounts])) as Record<ClickList, NameCounts>;

function addLists(into: Record<ClickList, NameCounts>, from: Record<ClickList, NameCounts>) {
  for (const list of CLICK_LISTS) {
    const sums = into[list];
    const add = from[list];
    for (const name in add) sums[name] = (sums[name] ?? 0) + add[name]!;
  }
}

/** Hours (oldest first) as a summary: their totals, and their lists summed. */
export function summarize(hours: LinkHour[]): LinkHoursSummary {
  const lists = emptyLists();
  for (const h of hours) addLists(lists, h);
  return { hours: hours.map((h) => ({ start: h.start, clicks: h.clicks, botsExcluded: h.botsExcluded })), lists };
}

/** Summaries of consecutive ranges, in order, as one. */
export function mergeSummaries(parts: LinkHoursSummary[]): LinkHoursSummary {
  const lists = emptyLists();
  for (const p of parts) addLists(lists, p.lists);
  return { hours: parts.flatMap((p) => p.hours), lists };
}
