import { isoWithOffset } from '@feedback/kit-core';
import type { GetLinkAnalyticsResponse } from '@feedback/proto/feedback/shortener/v1/shortener';

/** The query as the shortener takes it ('' = not given). */
export const linkStatsQuery = (q: { from?: string; to?: string; interval?: string; time_zone?: string }) => ({
  from: q.from ?? '',
  to: q.to ?? '',
  interval: q.interval ?? '',
  timeZone: q.time_zone ?? '',
});

const names = (list: Array<{ name: string; clicks: number }>) => list.map((n) => ({ name: n.name, clicks: n.clicks }));

export const linkStatsView = (r: GetLinkAnalyticsResponse) => ({
  from: isoWithOffset(new Date(r.from)),
  to: isoWithOffset(new Date(r.to)),
  interval: r.interval as 'hour' | 'day',
  time_zone: r.timeZone,
  clicks: r.clicks,
  bots_excluded: r.botsExcluded,
  series: r.series.map((b) => ({ start: b.start, clicks: b.clicks })),
  devices: names(r.devices),
  operating_systems: names(r.operatingSystems),
  browsers: names(r.browsers),
  referrers: names(r.referrers),
  countries: names(r.countries),
});
