import type { Page } from '@feedback/kit-core';

/** Where an opt-out came from: the API, an inbound SMS keyword (STOP), or the survey page's button. */
export type OptOutSource = 'api' | 'keyword' | 'survey_page';

export const OPT_OUT_SOURCES: readonly OptOutSource[] = ['api', 'keyword', 'survey_page'];

/** One phone on an account's suppression list: no SMS of the account reaches it while it is there. */
export interface SmsOptOut {
  accountId: string;
  /** Normalized: E.164 digits without "+". */
  phone: string;
  source: OptOutSource;
  createdAt: Date;
}

/** A page of a suppression list; `nextPageToken` is '' on the last page. */
export type OptOutPage = Page<SmsOptOut>;

/**
 * Whether an inbound SMS asks to stop: its first word is one of the keywords, compared without
 * case, without punctuation around it, and without the Turkish dotted/dotless i distinction
 * (İ, I, ı and i are one letter), since phones type "İptal", "IPTAL" or "iptal" for the same word.
 */
export function isOptOutRequest(text: string, keywords: readonly string[]): boolean {
  const first = foldWord(text.trim().split(/\s+/)[0] ?? '');
  return first !== '' && keywords.some((k) => foldWord(k) === first);
}

function foldWord(word: string): string {
  return (
    word
      .normalize('NFC')
      .replace(/[İIı]/g, 'i')
      .toLowerCase()
      // A decomposed İ (I + combining dot above) leaves its dot behind.
      .replace(/\u0307/g, '')
      .replace(/[^\p{L}\p{N}]/gu, '')
  );
}
