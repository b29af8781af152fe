import { errors, pageQueryOf, type PageQuery, type PageRequest, type PageRule } from '@feedback/kit-core';
import { normalizePhone } from '@feedback/kit-phone';

/** A phone as a caller writes it (any notation), normalized; INVALID_ARGUMENT naming `phone` when it is no number. */
export function phoneOf(written: string, region: string): string {
  const r = normalizePhone(written, region);
  if (!r.ok) throw errors.invalid({ phone: r.reason });
  return r.phone;
}

/** The admin message list's and the opt-out list's pages: 1-500 (a larger size is clamped), 50 by default. */
export const SMS_MESSAGES_PAGE: PageRule = { list: 'sms_messages', default: 50, max: 500 };
export const OPT_OUTS_PAGE: PageRule = { list: 'sms_opt_outs', default: 50, max: 500 };

/** A list's page query: its optional phone filter normalized (empty: every phone), then its page (kit-core paging). */
export function phonePage(
  q: { phone?: string } & Partial<PageRequest>,
  region: string,
  rule: PageRule,
): { phone?: string; page: PageQuery } {
  const phone = q.phone ? phoneOf(q.phone, region) : undefined;
  return { phone, page: pageQueryOf(q, rule) };
}
