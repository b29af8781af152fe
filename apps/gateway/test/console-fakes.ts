import type { AcceptInviteResult, ConsoleSessions, SignInResult, VerifiedSignInResult, Viewer } from '../src/accounts/domain/people.js';
import type {
  GetCampaignReportResponse,
  GetSmsSharingResponse,
  RecipientStatus,
  SmsCampaign,
  SmsSharingSummary,
} from '@feedback/proto/feedback/messaging/v1/messaging';
import { errors } from '@feedback/kit-core';
import { consoleFeature } from '../src/console/console.feature.js';
import type { ConsoleSmsPort } from '../src/console/console.feature.js';
import type { ConsoleSso } from '../src/console/sso.port.js';
import { testApi } from './listeners.js';

/*
 * In-memory fakes of the console's ports: people who sign in with a password, and one
 * messaging service holding campaigns, reports and sharings per account.
 */

export const viewerOf = (role: Viewer['role'], accountId: string | null = 'acc-1'): Viewer => ({
  userId: `u-${role}`,
  accountId,
  role,
  email: `${role}@example.com`,
  name: `Ada ${role}`,
  csrfToken: `csrf-${role}-0123456789abcdef`,
});

/** Sessions by cookie value; `password` signs in every known e-mail; `limited` e-mails are refused for 42 s. */
export class FakeSessions implements ConsoleSessions {
  readonly sessions = new Map<string, Viewer>();
  readonly people = new Map<string, Viewer>();
  readonly limited = new Set<string>();
  readonly invites = new Map<string, Viewer>();
  signInCalls: Array<{ email: string; ip: string }> = [];

  /** A signed-in session of `viewer`: its cookie value. */
  open(viewer: Viewer): string {
    const cookie = `s-${viewer.userId}-${this.sessions.size}`;
    this.sessions.set(cookie, viewer);
    return cookie;
  }

  async signIn(input: { email: string; password: string; ip: string }): Promise<SignInResult> {
    this.signInCalls.push({ email: input.email, ip: input.ip });
    if (this.limited.has(input.email)) return { ok: false, reason: 'limited', retryAfterSec: 42 };
    const viewer = this.people.get(input.email);
    if (!viewer || input.password !== 'correct horse battery') return { ok: false, reason: 'invalid' };
    return { ok: true, cookie: this.open(viewer), viewer };
  }
  async viewer(cookie: string) {
    return this.sessions.get(cookie) ?? null;
  }
  async signOut(cookie: string) {
    this.sessions.delete(cookie);
  }
  async acceptInvite(token: string, password: string): Promise<AcceptInviteResult> {
    const viewer = this.invites.get(token);
    if (!viewer) return { ok: false, reason: 'invalid' };
    if (password.length < 12) return { ok: false, reason: 'weak_password' };
    this.invites.delete(token);
    return { ok: true, cookie: this.open(viewer), viewer };
  }
  /** Single sign-on: a known e-mail signs in, whatever the case; `signInVerifiedCalls` records the e-mails asked for. */
  signInVerifiedCalls: string[] = [];
  async signInVerified(input: { email: string; ip: string }): Promise<VerifiedSignInResult> {
    this.signInVerifiedCalls.push(input.email);
    const viewer = this.people.get(input.email.toLowerCase());
    return viewer ? { ok: true, cookie: this.open(viewer), viewer } : { ok: false, reason: 'invalid' };
  }
}

const totals = (sent: number) => ({
  recipients: sent,
  sent,
  delivered: Math.floor(sent * 0.9),
  failed: 1,
  optedOut: 0,
  clicked: Math.floor(sent / 2),
  answered: Math.floor(sent / 4),
  segments: sent,
});

export function campaignOf(id: string, accountId: string, name: string): SmsCampaign {
  return {
    id,
    accountId,
    name,
    nodeId: 'n',
    flowId: 'f',
    channelId: 'c',
    messageTemplate: '{{link}}',
    createdAt: '2026-11-01T10:00:00.000Z',
    reminders: [],
    transliterate: false,
  };
}

export function reportOf(campaignId: string, series: Array<[number, number, number, number]>): GetCampaignReportResponse {
  const sum = (i: number) => series.reduce((s, b) => s + b[i]!, 0);
  return {
    campaignId,
    campaignName: '',
    totals: { ...totals(sum(0)), delivered: sum(1), clicked: sum(2), answered: sum(3) },
    rates: { delivery: 0.9, click: 0.5, response: 0.25 },
    nps: { score: 37, promoters: 5, passives: 2, detractors: 1, total: 8 },
    series: series.map(([sent, delivered, clicked, answered], i) => ({
      start: new Date(Date.UTC(2026, 10, 1 + i)).toISOString(),
      sent,
      delivered,
      failed: 0,
      clicked,
      answered,
    })),
    from: '2026-11-01T00:00:00.000Z',
    to: new Date(Date.UTC(2026, 10, 1 + series.length)).toISOString(),
    interval: 'day',
    timeZone: 'UTC',
  };
}

export function recipient(phone: string, status: string, extra: Partial<RecipientStatus> = {}): RecipientStatus {
  return { phone, status, error: '', updatedAt: '2026-11-02T10:00:00.000Z', encoding: 'gsm7', segments: 1, reminders: [], ...extra };
}

export function sharingOf(
  id: string,
  campaignId: string,
  recipients: RecipientStatus[],
  extra: Partial<GetSmsSharingResponse> = {},
): GetSmsSharingResponse {
  return {
    sharingId: id,
    campaignId,
    createdAt: '2026-11-02T09:00:00.000Z',
    accepted: recipients.length,
    duplicate: 0,
    rejectedPhones: [],
    recipients,
    counts: { scheduled: 0, queued: 0, sending: 0, sent: 0, delivered: recipients.length, failed: 0, optedOut: 0, cancelled: 0, other: 0 },
    segments: recipients.length,
    funnel: { clicked: 0, answered: 0 },
    scheduledFor: '',
    cancelledAt: '',
    ...extra,
  };
}

/** Messaging as the console reads it: every call checks the account, another account's id is NOT_FOUND. */
export class FakeSms implements ConsoleSmsPort {
  campaigns: SmsCampaign[] = [];
  reports = new Map<string, GetCampaignReportResponse>();
  sharings: GetSmsSharingResponse[] = [];
  cancels: Array<{ accountId: string; sharingId: string }> = [];
  reportRequests: Array<{ from: string; to: string; interval: string }> = [];

  private campaign(accountId: string, id: string) {
    const c = this.campaigns.find((x) => x.id === id && x.accountId === accountId);
    if (!c) throw errors.notFound('campaign_id', id);
    return c;
  }
  async listSmsCampaigns(req: { accountId: string; pageSize: number; pageToken: string }) {
    const mine = this.campaigns.filter((c) => c.accountId === req.accountId);
    const start = req.pageToken ? Number(req.pageToken) : 0;
    const page = mine.slice(start, start + req.pageSize);
    return { campaigns: page, nextPageToken: start + req.pageSize < mine.length ? String(start + req.pageSize) : '' };
  }
  async getCampaignReport(req: { accountId: string; campaignId: string; from: string; to: string; interval: string }) {
    const { name } = this.campaign(req.accountId, req.campaignId);
    this.reportRequests.push({ from: req.from, to: req.to, interval: req.interval });
    return { ...(this.reports.get(req.campaignId) ?? reportOf(req.campaignId, [[0, 0, 0, 0]])), campaignName: name };
  }
  async listSmsSharings(req: { accountId: string; campaignId: string }) {
    this.campaign(req.accountId, req.campaignId);
    const sharings: SmsSharingSummary[] = this.sharings.filter((s) => s.campaignId === req.campaignId).map((s) => this.summaryOf(s));
    return { sharings, nextPageToken: '' };
  }
  private sharing(accountId: string, id: string) {
    const s = this.sharings.find((x) => x.sharingId === id);
    if (!s || !this.campaigns.some((c) => c.id === s.campaignId && c.accountId === accountId)) throw errors.notFound('sharing_id', id);
    return s;
  }
  /** As messaging: a page of the sharing's recipients (the token: where the next page starts), with the sharing's summary. */
  async listSharingRecipients(req: {
    accountId: string;
    sharingId: string;
    status: string;
    phone: string;
    pageSize: number;
    pageToken: string;
  }) {
    const s = this.sharing(req.accountId, req.sharingId);
    const phone = req.phone.replace(/\D/g, '').replace(/^00/, '');
    if (req.pageToken && !/^\d+$/.test(req.pageToken)) throw errors.invalid({ page_token: 'is not a page token of this list' });
    const matching = s.recipients.filter((r) => (!req.status || r.status === req.status) && (!phone || r.phone === phone));
    const from = Number(req.pageToken || 0);
    const next = from + req.pageSize;
    return {
      sharing: this.summaryOf(s),
      recipients: matching.slice(from, next),
      nextPageToken: next < matching.length ? String(next) : '',
    };
  }
  private summaryOf(s: GetSmsSharingResponse): SmsSharingSummary {
    const scheduled = !s.cancelledAt && s.scheduledFor !== '' && s.scheduledFor > '2026-11-02T08:00:00.000Z';
    return {
      sharingId: s.sharingId,
      campaignId: s.campaignId,
      createdAt: s.createdAt,
      status: s.cancelledAt ? 'cancelled' : scheduled ? 'scheduled' : 'completed',
      accepted: s.accepted,
      rejected: 0,
      duplicate: 0,
      scheduledFor: s.scheduledFor,
      cancelledAt: s.cancelledAt,
      completedAt: '',
      totals: totals(s.accepted),
    };
  }
  async cancelSmsSharing(req: { accountId: string; sharingId: string }) {
    const s = this.sharing(req.accountId, req.sharingId);
    this.cancels.push(req);
    s.cancelledAt = '2026-11-02T09:30:00.000Z';
    return { cancelled: s.recipients.length, alreadySent: 0 };
  }
}

/** The API listener with only the console, on these fakes; accounts acc-1 and acc-2 exist. */
export function consoleApi(sessions: FakeSessions, sms: FakeSms, opts: { publicBaseUrl?: string; sso?: ConsoleSso } = {}) {
  const names: Record<string, string> = { 'acc-1': 'Shop One', 'acc-2': 'Shop Two' };
  return testApi({
    features: [
      consoleFeature({
        sessions,
        sms,
        accounts: { findById: async (id) => (names[id] ? { id, name: names[id], createdAt: new Date(0) } : null) },
        publicBaseUrl: opts.publicBaseUrl,
        displayTimeZone: 'UTC',
        clock: { now: () => new Date('2026-11-02T08:00:00.000Z') },
        sso: opts.sso,
      }),
    ],
  });
}
