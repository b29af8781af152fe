import { emptyTally, errors, isTimeZone, npsScore, type NpsTally } from '@feedback/kit-core';
import { parseInstant } from '../../intake/domain/sharing-list.use-cases.js';
import type { CampaignTallyRow, ReportReadDeps } from '../report-reads.ports.js';
import { bucketStarts, seriesOf, type ReportBucket, type ReportInterval } from './report-buckets.js';
import { zeroTotals, type ReportTotals } from './report-totals.js';

/** GetCampaignReport as the caller asked it ('' = not given). */
export interface CampaignReportQuery {
  accountId: string;
  campaignId: string;
  from: string;
  to: string;
  interval: string;
  timeZone: string;
}

/** Fractions of `sent` (0-1, four decimals); null when nothing was sent. */
export interface ReportRates {
  delivery: number | null;
  click: number | null;
  response: number | null;
}

export interface CampaignReport {
  campaignId: string;
  campaignName: string;
  from: Date;
  to: Date;
  interval: ReportInterval;
  timeZone: string;
  totals: ReportTotals;
  rates: ReportRates;
  nps: NpsTally & { score: number | null };
  series: ReportBucket[];
}

/** Without `from`: this many days before `to`. */
export const REPORT_DEFAULT_DAYS = 30;
/** The longest range of one report, in days: at most about 400 days, or 31 × 24 hours (a bucket more when from is mid-period). */
export const REPORT_MAX_DAYS: Record<ReportInterval, number> = { day: 400, hour: 31 };
// Days are 23 to 25 hours: a range of n days has at most n + 2 buckets of a zone's days, more never.
const MAX_BUCKETS: Record<ReportInterval, number> = { day: REPORT_MAX_DAYS.day + 3, hour: REPORT_MAX_DAYS.hour * 24 + 3 };

const DAY_MS = 86_400_000;

interface Range {
  from: Date;
  to: Date;
  interval: ReportInterval;
  timeZone: string;
}

/** from, to, interval and time_zone checked, every problem at once under its field, the defaults filled in. */
function checkRange(q: CampaignReportQuery, now: Date): Range {
  const problems: Record<string, string> = {};
  const interval = q.interval || 'day';
  if (interval !== 'hour' && interval !== 'day') problems.interval = 'must be hour or day';
  const timeZone = q.timeZone || 'UTC';
  if (!isTimeZone(timeZone)) problems.time_zone = 'must be an IANA time zone, e.g. Europe/Istanbul';
  const at = (field: 'from' | 'to', text: string): Date | undefined => {
    if (!text) return undefined;
    const parsed = parseInstant(text);
    if (typeof parsed === 'string') problems[field] = parsed;
    return typeof parsed === 'string' ? undefined : parsed;
  };
  const to = at('to', q.to) ?? (q.to ? undefined : now);
  const from = at('from', q.from) ?? (q.from || !to ? undefined : new Date(to.getTime() - REPORT_DEFAULT_DAYS * DAY_MS));
  if (from && to && from >= to) {
    if (q.to) problems.to = 'must be after from';
    else problems.from = 'must be before to (now when not given)';
  }
  const most = interval === 'hour' || interval === 'day' ? REPORT_MAX_DAYS[interval] : undefined;
  if (from && to && most && to.getTime() - from.getTime() > most * DAY_MS && !problems.from) {
    problems.from = `must be at most ${most} days before to with interval=${interval}`;
  }
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  return { from: from!, to: to!, interval: interval as ReportInterval, timeZone };
}

const rate = (n: number, sent: number) => (sent > 0 ? Math.round((n / sent) * 10_000) / 10_000 : null);

/** The totals and NPS of the counter documents. */
function sums(rows: CampaignTallyRow[]): { totals: ReportTotals; nps: NpsTally } {
  const totals = zeroTotals();
  const nps = emptyTally();
  // Field by field: a loop over the names is a keyed access per counter and document (90 days: 70,000).
  for (const r of rows) {
    totals.recipients += r.recipients;
    totals.sent += r.sent;
    totals.delivered += r.delivered;
    totals.failed += r.failed;
    totals.optedOut += r.optedOut;
    totals.clicked += r.clicked;
    totals.answered += r.answered;
    totals.segments += r.segments;
    nps.promoters += r.promoters;
    nps.passives += r.passives;
    nps.detractors += r.detractors;
  }
  nps.total = nps.promoters + nps.passives + nps.detractors;
  return { totals, nps };
}

/**
 * A campaign's report over [from, to): totals, rates and NPS of the 15-minute counter documents
 * starting in the range, and a series per hour or day of the caller's time zone (daylight saving
 * time included: kit-core periodStart), each the sum of the documents inside it. Bad arguments
 * are INVALID_ARGUMENT before anything is read; another account's campaign is NOT_FOUND like an
 * unknown one. One read of at most 96 documents a day, whatever the campaign's size.
 */
export async function getCampaignReport(deps: ReportReadDeps, q: CampaignReportQuery): Promise<CampaignReport> {
  const range = checkRange(q, deps.clock.now());
  const starts = bucketStarts(range.from, range.to, range.interval, range.timeZone, MAX_BUCKETS[range.interval]);
  if (!starts) throw errors.internal(`more ${range.interval}s than a report's range can hold in ${range.timeZone}`);
  const campaign = await deps.campaigns.findById(q.accountId, q.campaignId);
  if (!campaign) throw errors.notFound('campaign_id', q.campaignId);
  const rows = await deps.tallies.campaignBuckets(q.accountId, q.campaignId, range.from, range.to);
  const { totals, nps } = sums(rows);
  return {
    campaignId: q.campaignId,
    campaignName: campaign.name,
    ...range,
    totals,
    rates: {
      delivery: rate(totals.delivered, totals.sent),
      click: rate(totals.clicked, totals.sent),
      response: rate(totals.answered, totals.sent),
    },
    nps: { ...nps, score: npsScore(nps) },
    series: seriesOf(starts, rows),
  };
}
