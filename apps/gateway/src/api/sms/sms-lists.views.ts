import { isoWithOffset } from '@feedback/kit-core';
import type { ListSmsCampaignsResponse, ListSmsSharingsResponse } from '@feedback/proto/feedback/messaging/v1/messaging';
import { totalsView } from './campaign-report.views.js';

const iso = (s: string) => isoWithOffset(new Date(s));
const isoOrNull = (s: string) => (s ? iso(s) : null);

/** GET /v1/sms_campaigns: what an integrator needs to pick a campaign (the admin list has every field). */
export const campaignSummariesView = (r: ListSmsCampaignsResponse) => ({
  data: r.campaigns.map((c) => ({ id: c.id, name: c.name, flow_id: c.flowId, created_at: iso(c.createdAt) })),
  next_page_token: r.nextPageToken || null,
});

export const sharingSummariesView = (r: ListSmsSharingsResponse) => ({
  data: r.sharings.map((s) => {
    const { clicked, answered, segments, ...totals } = totalsView(s.totals);
    return {
      id: s.sharingId,
      campaign_id: s.campaignId,
      created_at: iso(s.createdAt),
      status: s.status,
      accepted: s.accepted,
      rejected: s.rejected,
      duplicate: s.duplicate,
      scheduled_for: isoOrNull(s.scheduledFor),
      cancelled_at: isoOrNull(s.cancelledAt),
      completed_at: isoOrNull(s.completedAt),
      totals,
      funnel: { clicked, answered },
      segments,
    };
  }),
  next_page_token: r.nextPageToken || null,
});

/** The sharing filters of a query in the proto's shape ('' = not given). */
export const sharingFilters = (q: { status?: string; created_after?: string; created_before?: string }) => ({
  status: q.status ?? '',
  createdAfter: q.created_after ?? '',
  createdBefore: q.created_before ?? '',
});
