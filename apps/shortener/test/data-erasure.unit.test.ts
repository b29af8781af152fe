import { describe, expect, it } from 'vitest';
import { eraseShortLinks, type ShortLinkEraser } from '../src/domain/data-erasure.use-cases.js';

class MemoryLinks implements ShortLinkEraser {
  constructor(readonly items: { accountId: string | null; fullUrl: string }[]) {}
  async deleteByTargets(accountId: string, urls: string[]) {
    const hit = this.items.filter((l) => l.accountId === accountId && urls.includes(l.fullUrl));
    for (const l of hit) this.items.splice(this.items.indexOf(l), 1);
    return hit.length;
  }
}

describe('data erasure (shortener)', () => {
  it("deletes the account's short links to the person's survey links only, and none the second time", async () => {
    const mine = 'https://feedback.example.com/s/tok-person';
    const links = new MemoryLinks([
      { accountId: 'acc-1', fullUrl: mine },
      { accountId: 'acc-1', fullUrl: mine },
      { accountId: 'acc-1', fullUrl: 'https://feedback.example.com/s/tok-other' },
      { accountId: 'acc-2', fullUrl: mine },
      { accountId: null, fullUrl: mine },
    ]);
    const request = { accountId: 'acc-1', surveyLinkUrls: [mine, mine] };
    expect(await eraseShortLinks({ links }, request)).toBe(2);
    expect(links.items).toHaveLength(3);
    expect(await eraseShortLinks({ links }, request)).toBe(0);
    expect(await eraseShortLinks({ links }, { accountId: 'acc-1', surveyLinkUrls: [] })).toBe(0);
  });
});
