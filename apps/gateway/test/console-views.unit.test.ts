import type { SmsSharingSummary } from '@feedback/proto/feedback/messaging/v1/messaging';
import { describe, expect, it } from 'vitest';
import { CONSOLE_ICON_PATH } from '../src/console/console-icon.js';
import { campaignPage } from '../src/console/campaign.views.js';
import { wordsFor } from '../src/console/console.i18n.js';
import { sharingPage } from '../src/console/sharing.views.js';
import { consoleApi, FakeSessions, FakeSms, recipient, reportOf, viewerOf } from './console-fakes.js';

// What the browser test of the console found missing on the campaign and sharing pages.
const ctx = { lang: 'en' as const, words: wordsFor('en'), viewer: viewerOf('owner'), here: '/console/' };
const summary: SmsSharingSummary = {
  sharingId: 'sh-1',
  campaignId: 'c-1',
  createdAt: '2026-11-02T09:00:00.000Z',
  status: 'completed',
  accepted: 3,
  rejected: 0,
  duplicate: 0,
  scheduledFor: '',
  cancelledAt: '',
  completedAt: '',
  totals: { recipients: 3, sent: 3, delivered: 2, failed: 1, optedOut: 0, clicked: 0, answered: 0, segments: 3 },
};

describe('console views', () => {
  it('a campaign’s sharings show how many failed beside how many were delivered', () => {
    const html = campaignPage(
      ctx,
      {
        viewer: ctx.viewer,
        accountId: 'acc-1',
        campaignId: 'c-1',
        name: 'After visit',
        report: reportOf('c-1', [[3, 2, 0, 0]]),
        sharings: [summary],
        sharingsNext: '',
        from: '2026-11-01',
        to: '2026-11-02',
      },
      'UTC',
    );
    expect(html).toContain('<th scope="col" class="num">Delivered</th><th scope="col" class="num">Failed</th>');
    expect(html).toMatch(
      /<td class="num">3<\/td>\n<td class="num">3<\/td>\n<td class="num">2<\/td>\n<td class="num">1<\/td>\n<td class="num">0<\/td>/,
    );
  });

  it('a failed recipient shows the provider’s status and error code, not only its description', () => {
    const failed = recipient('905320000001', 'failed', {
      errorDetail: { status: 'UNDELIV', code: 'EC_ABSENT_SUBSCRIBER', description: '' },
    });
    const html = sharingPage(
      ctx,
      {
        viewer: ctx.viewer,
        accountId: 'acc-1',
        sharing: summary,
        recipients: [failed],
        nextPageToken: '',
        firstPage: true,
        status: 'failed',
        phone: '',
      },
      'UTC',
    );
    expect(html).toContain('<td>UNDELIV · EC_ABSENT_SUBSCRIBER</td>');
    // On a phone the table scrolls sideways: its wrap takes the keyboard focus so it can be scrolled.
    expect(html).toContain('<div class="table-wrap" tabindex="0"><table>');
    expect(html).not.toContain('<div class="table-wrap">');
  });

  it('every page names its icon, served as a file the CSP admits (no browser asks for /favicon.ico)', async () => {
    const app = await consoleApi(new FakeSessions(), new FakeSms());
    const signIn = await app.inject('/console/sign-in');
    expect(signIn.body).toContain(`<link rel="icon" href="${CONSOLE_ICON_PATH}" type="image/svg+xml">`);
    const icon = await app.inject(CONSOLE_ICON_PATH);
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toContain('immutable');
    expect(icon.body).toMatch(/^<svg /);
    await app.close();
  });
});
