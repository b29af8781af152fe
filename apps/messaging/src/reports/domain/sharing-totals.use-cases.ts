import type { Page } from '@feedback/kit-core';
import { listSharings, type ListedSharing, type SharingListRequest } from '../../intake/domain/sharing-list.use-cases.js';
import type { ReportReadDeps } from '../report-reads.ports.js';
import { zeroTotals, type ReportTotals } from './report-totals.js';

export interface ListedSharingTotals extends ListedSharing {
  totals: ReportTotals;
}

/**
 * ListSmsSharings: the page of sharings (intake's list), each with its counters read in one go
 * for the whole page. A sharing the relay has not counted yet reads zeros: the counters follow
 * what happened by about a second (GetSmsSharing's counts are exact).
 */
export async function listSharingsWithTotals(deps: ReportReadDeps, q: SharingListRequest): Promise<Page<ListedSharingTotals>> {
  const page = await listSharings(deps, q);
  const totals = page.items.length
    ? await deps.tallies.sharingTotals(
        q.accountId,
        page.items.map((i) => i.sharing.id),
      )
    : new Map();
  return { ...page, items: page.items.map((i) => ({ ...i, totals: totals.get(i.sharing.id) ?? zeroTotals() })) };
}
