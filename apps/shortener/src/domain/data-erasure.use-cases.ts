/** Short links pointing at given targets, deleted by the account that made them. */
export interface ShortLinkEraser {
  deleteByTargets(accountId: string, fullUrls: string[]): Promise<number>;
}

/**
 * The shortener's part of a data erasure: the account's short links whose target is one of the
 * person's survey links (their URL holds the link's token, which opens the person's survey page).
 * Anonymous links (no account) are not the account's to erase. Idempotent: a second run finds none.
 */
export async function eraseShortLinks(
  deps: { links: ShortLinkEraser },
  r: { accountId: string; surveyLinkUrls: string[] },
): Promise<number> {
  const urls = [...new Set(r.surveyLinkUrls.filter(Boolean))];
  return urls.length === 0 ? 0 : deps.links.deleteByTargets(r.accountId, urls);
}
