import type { CampaignTallyRow, TallyReader } from '../../src/reports/report-reads.ports.js';
import { zeroTotals, type ReportTotals } from '../../src/reports/domain/report-totals.js';

/** Counter documents in memory, as the relay would leave them (absent counters 0). */
export class MemoryTallies implements TallyReader {
  readonly campaign: (CampaignTallyRow & { accountId: string; campaignId: string })[] = [];
  readonly sharing = new Map<string, ReportTotals & { accountId: string }>();
  reads = 0;

  /** One 15-minute bucket's counters. */
  bucket(accountId: string, campaignId: string, start: string, counts: Partial<Omit<CampaignTallyRow, 'start'>>) {
    this.campaign.push({
      ...zeroTotals(),
      promoters: 0,
      passives: 0,
      detractors: 0,
      ...counts,
      start: new Date(start),
      accountId,
      campaignId,
    });
  }

  async campaignBuckets(accountId: string, campaignId: string, from: Date, to: Date): Promise<CampaignTallyRow[]> {
    this.reads++;
    return this.campaign
      .filter((r) => r.accountId === accountId && r.campaignId === campaignId && r.start >= from && r.start < to)
      .sort((a, b) => a.start.getTime() - b.start.getTime())
      .map(({ accountId: _a, campaignId: _c, ...row }) => row);
  }

  async sharingTotals(accountId: string, sharingIds: string[]): Promise<Map<string, ReportTotals>> {
    this.reads++;
    const out = new Map<string, ReportTotals>();
    for (const id of sharingIds) {
      const t = this.sharing.get(id);
      if (t && t.accountId === accountId) {
        const { accountId: _a, ...totals } = t;
        out.set(id, totals);
      }
    }
    return out;
  }
}
