import { isoWithOffset } from '@feedback/kit-core';
import type { GetCampaignReportResponse, ReportTotals } from '@feedback/proto/feedback/messaging/v1/messaging';

const iso = (s: string) => isoWithOffset(new Date(s));

/** A campaign's or a list entry's totals; zeros when messaging answered none. */
export const totalsView = (t: ReportTotals | undefined) => ({
  recipients: t?.recipients ?? 0,
  sent: t?.sent ?? 0,
  delivered: t?.delivered ?? 0,
  failed: t?.failed ?? 0,
  opted_out: t?.optedOut ?? 0,
  clicked: t?.clicked ?? 0,
  answered: t?.answered ?? 0,
  segments: t?.segments ?? 0,
});

/** Unset rates and score (nothing sent, no answer) are null, never 0. */
export const campaignReportView = (r: GetCampaignReportResponse) => ({
  campaign_id: r.campaignId,
  from: iso(r.from),
  to: iso(r.to),
  interval: r.interval,
  time_zone: r.timeZone,
  totals: totalsView(r.totals),
  rates: { delivery: r.rates?.delivery ?? null, click: r.rates?.click ?? null, response: r.rates?.response ?? null },
  nps: {
    score: r.nps?.score ?? null,
    promoters: r.nps?.promoters ?? 0,
    passives: r.nps?.passives ?? 0,
    detractors: r.nps?.detractors ?? 0,
    total: r.nps?.total ?? 0,
  },
  series: r.series.map((b) => ({
    start: b.start,
    sent: b.sent,
    delivered: b.delivered,
    failed: b.failed,
    clicked: b.clicked,
    answered: b.answered,
  })),
});

/** The query in the proto's shape ('' = not given). */
export const reportQuery = (q: { from?: string; to?: string; interval?: string; time_zone?: string }) => ({
  from: q.from ?? '',
  to: q.to ?? '',
  interval: q.interval ?? '',
  timeZone: q.time_zone ?? '',
});
