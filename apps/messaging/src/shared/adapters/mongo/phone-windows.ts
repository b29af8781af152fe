/**
 * One range of phone strings: after `from` (or from it, `inclusive`), below `to` (null: to the end).
 */
export interface PhoneWindow {
  from: string;
  inclusive: boolean;
  to: string | null;
}

/**
 * The ranges a read of a sharing's records by phone order walks, one query each, from after
 * `after` (or from the first phone when it is ''), each about three times wider than the one before;
 * together they cover every phone string above the start exactly once, in order. The local
 * MongoDB server (SecantusDB) decodes every document of a query's index range before it sorts and
 * limits, so "the next 51 of a status" over one open range reads all of that status above the
 * start (3,000 failed records of 100,000 recipients: 150 ms); narrow ranges that widen until
 * enough is found read about what the page needs, however common or rare the status. The first
 * range is `anchor`'s neighbourhood, the last digits of a phone: a recipient of the sharing, so
 * that its recipients are close by. On the first page (no `after`), `near` is that phone; the
 * first range then holds every phone up to it, few when it is one of the lowest.
 */
export function* phoneWindows(after: string, near?: string): Generator<PhoneWindow> {
  let anchor = after;
  let inclusive = false;
  if (!after && near) {
    yield { from: '', inclusive: false, to: near };
    anchor = near;
    inclusive = true;
  }
  if (!anchor) {
    yield { from: '', inclusive: false, to: null };
    return;
  }
  let from = anchor;
  for (let keep = anchor.length - 2; keep > 0; keep--)
    // Three digits on in place `keep`, then past every phone that starts like the anchor up to
    // it: each range about three times the one before.
    for (const to of [bumped(anchor.slice(0, keep + 1), 3), nextPrefix(anchor.slice(0, keep))]) {
      if (to === null || to <= from) continue;
      yield { from, inclusive, to };
      from = to;
      inclusive = true;
    }
  yield { from, inclusive, to: null };
}

/** `prefix` with its last digit `by` higher (null when that is past 9). */
function bumped(prefix: string, by: number): string | null {
  const digit = Number(prefix.at(-1)) + by;
  return digit > 9 ? null : prefix.slice(0, -1) + String(digit);
}

/** The lowest digit string above every string that starts with `prefix` (null: none, it is all nines). */
function nextPrefix(prefix: string): string | null {
  const kept = prefix.replace(/9+$/, '');
  if (!kept) return null;
  return kept.slice(0, -1) + String(Number(kept.at(-1)) + 1);
}
