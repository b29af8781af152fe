import type { GetLinkAnalyticsRequest, GetLinkAnalyticsResponse } from '@feedback/proto/feedback/shortener/v1/shortener';

/** What a link's stats need from the shortener service. */
export interface LinkStatsPort {
  getLinkAnalytics(req: GetLinkAnalyticsRequest): Promise<GetLinkAnalyticsResponse>;
}
