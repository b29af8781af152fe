import { describe, expect, it } from 'vitest';
import { accountLinkView, updateLinkRequest } from '../src/api/links/account-links.views.js';

describe("an account's links: PATCH body and answer", () => {
  it('sends only the fields given, null as the empty value that clears', () => {
    expect(updateLinkRequest('acc', 'Code123', { title: 'Shelf' })).toEqual({ accountId: 'acc', code: 'Code123', title: 'Shelf' });
    expect(updateLinkRequest('acc', 'Code123', { expires_at: null, max_clicks: null, expired_url: null, title: null, tags: [] })).toEqual({
      accountId: 'acc',
      code: 'Code123',
      expiresAt: '',
      maxClicks: 0,
      expiredUrl: '',
      title: '',
      tags: { tags: [] },
    });
  });

  it('shows every field, null (or no tags) for what the link lacks, dates with their offset', () => {
    const link = { code: 'Code123', fullUrl: 'https://e.example/', shortUrl: 'https://sho.rt/Code123', accountId: 'acc', domain: '' };
    expect(accountLinkView({ link: { ...link, createdAt: '2026-11-22T09:30:00.123Z' }, clicks: 2 })).toEqual({
      id: 'Code123',
      short_url: 'https://sho.rt/Code123',
      full_url: 'https://e.example/',
      domain: null,
      title: null,
      tags: [],
      expires_at: null,
      max_clicks: null,
      expired_url: null,
      clicks: 2,
      created_at: '2026-11-22T09:30:00.123+00:00',
    });
    const limited = {
      ...link,
      createdAt: '2026-11-22T09:30:00.123Z',
      expiresAt: '2026-12-01T00:00:00.000Z',
      maxClicks: 1,
      tags: { tags: ['a'] },
    };
    expect(accountLinkView({ link: limited, clicks: 0 })).toMatchObject({
      expires_at: '2026-12-01T00:00:00.000+00:00',
      max_clicks: 1,
      tags: ['a'],
    });
  });
});
