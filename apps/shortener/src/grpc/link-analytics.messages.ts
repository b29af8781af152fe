import type { GetLinkAnalyticsRequest, GetLinkAnalyticsResponse } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { LinkAnalytics, LinkAnalyticsQuery } from '../domain/link-analytics.use-cases.js';

/** proto <-> domain for GetLinkAnalytics. */
export const analyticsQueryOf = (req: GetLinkAnalyticsRequest): LinkAnalyticsQuery => ({
  accountId: req.accountId,
  code: req.code,
  from: req.from,
  to: req.to,
  interval: req.interval,
  timeZone: req.timeZone,
});

export const analyticsMessage = (a: LinkAnalytics): GetLinkAnalyticsResponse => ({
  clicks: a.clicks,
  botsExcluded: a.botsExcluded,
  series: a.series,
  devices: a.devices,
  operatingSystems: a.operatingSystems,
  browsers: a.browsers,
  referrers: a.referrers,
  countries: a.countries,
  from: a.from.toISOString(),
  to: a.to.toISOString(),
  interval: a.interval,
  timeZone: a.timeZone,
});
