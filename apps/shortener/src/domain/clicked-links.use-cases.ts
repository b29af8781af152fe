import { errors } from '@feedback/kit-core';
import { LINK_LIMITS } from './link.js';
import type { ShortenerDeps } from './ports.js';

/** Codes per CountClickedLinks call: a sharing's recipients (10,000 at most). */
export const MAX_COUNTED_CODES = 10_000;

type Deps = Pick<ShortenerDeps, 'links' | 'tallies'>;

/**
 * How many of the account's `codes` were followed at least once (a sharing's funnel). A code
 * counts once however often it was given or clicked; an unknown code, a malformed one and
 * another account's count as not followed, so a caller learns nothing of other accounts' links.
 * Two reads by code, whatever the number of codes: which are the account's, then which of those
 * have a click tally.
 */
export async function countClickedLinks(deps: Deps, q: { accountId: string; codes: string[] }): Promise<number> {
  if (!q.accountId) throw errors.invalid({ account_id: 'is required' });
  if (q.codes.length > MAX_COUNTED_CODES) throw errors.invalid({ codes: `must have at most ${MAX_COUNTED_CODES} items` });
  const codes = [...new Set(q.codes.filter((c) => LINK_LIMITS.codePattern.test(c)))];
  const owned = await deps.links.ownedCodes(q.accountId, codes);
  return deps.tallies.countClicked(owned);
}
