import { errors, type PageRequest } from '@feedback/kit-core';
import { normalizePhone, normalizePhoneList } from '@feedback/kit-phone';
import { OPT_OUTS_PAGE, phoneOf, phonePage } from '../../shared/domain/phone-page.js';
import { isOptOutRequest, OPT_OUT_SOURCES, type OptOutPage, type OptOutSource } from './opt-out.js';
import type { OptOutDeps } from '../ports.js';
import type { OutgoingSms, SmsProvider } from '../../providers/ports.js';
import { smsCost } from '../../shared/domain/sms-encoding.js';

/** Phones one AddSmsOptOuts call may carry. */
export const MAX_OPT_OUTS_PER_CALL = 1_000;

/**
 * POST /v1/sms_opt_outs: puts phones on the account's suppression list. Phones are normalized as a
 * sharing normalizes them, and the call is all or nothing: any invalid phone answers
 * INVALID_ARGUMENT naming every invalid one (`phone_numbers.<as written>`) and stores none, so a
 * caller never has to work out which of its phones made it. A phone written twice counts once;
 * `already` counts the phones that were on the list before.
 */
export async function addOptOuts(
  deps: Pick<OptOutDeps, 'optOuts' | 'clock' | 'settings'>,
  cmd: { accountId: string; phoneNumbers: string[]; source: string },
): Promise<{ added: number; already: number }> {
  if (!isSource(cmd.source)) throw errors.invalid({ source: `must be one of ${OPT_OUT_SOURCES.join(', ')}` });
  if (cmd.phoneNumbers.length === 0) throw errors.invalid({ phone_numbers: 'must not be empty' });
  if (cmd.phoneNumbers.length > MAX_OPT_OUTS_PER_CALL) {
    throw errors.invalid({
      phone_numbers: `has ${cmd.phoneNumbers.length} entries; at most ${MAX_OPT_OUTS_PER_CALL} are allowed per request`,
    });
  }
  const list = normalizePhoneList(cmd.phoneNumbers, deps.settings.defaultRegion);
  if (list.rejected.length > 0) throw errors.invalid(Object.fromEntries(list.rejected.map((r) => [`phone_numbers.${r.phone}`, r.reason])));
  const added = await deps.optOuts.addMany({
    accountId: cmd.accountId,
    phones: list.accepted.map((p) => p.phone),
    source: cmd.source,
    at: deps.clock.now(),
  });
  const fresh = added.filter(Boolean).length;
  return { added: fresh, already: added.length - fresh };
}

/** GET /v1/sms_opt_outs: newest first, a page at a time; `phone` in any notation selects one phone's entry. */
export async function listOptOuts(
  deps: Pick<OptOutDeps, 'optOuts' | 'settings'>,
  q: { accountId: string; phone?: string } & Partial<PageRequest>,
): Promise<OptOutPage> {
  const { phone, page } = phonePage(q, deps.settings.defaultRegion, OPT_OUTS_PAGE);
  return deps.optOuts.list({ accountId: q.accountId, ...(phone ? { phone } : {}), page });
}

/** DELETE /v1/sms_opt_outs/{phone}: NOT_FOUND (phone, as written) when it is not on the list. */
export async function removeOptOut(deps: Pick<OptOutDeps, 'optOuts' | 'settings'>, q: { accountId: string; phone: string }): Promise<void> {
  if (!(await deps.optOuts.remove(q.accountId, phoneOf(q.phone, deps.settings.defaultRegion)))) throw errors.notFound('phone', q.phone);
}

/** How a deployment treats inbound SMS (env SMS_OPT_OUT_KEYWORDS, SMS_OPT_OUT_REPLY). */
export interface InboundRules {
  keywords: readonly string[];
  /** Empty: no confirmation is sent. */
  reply: string;
  /** The deployment's provider, which sends the confirmation. */
  provider: SmsProvider;
}

/**
 * An inbound SMS (from the SMS gateway): when its first word is an opt-out keyword, the sender
 * goes on the suppression list of every account that has texted it (source `keyword`), since the
 * sender cannot say which account it means. The confirmation, when the deployment has one, goes
 * only to a sender some account had texted: a stranger's STOP is not answered. Answers the
 * accounts it was added for (none for any other message).
 */
export async function receiveInboundSms(
  deps: Pick<OptOutDeps, 'optOuts' | 'textedPhones' | 'clock' | 'settings' | 'logger'>,
  rules: InboundRules,
  sms: { from: string; text: string },
): Promise<{ optedOut: boolean; accounts: string[] }> {
  if (!isOptOutRequest(sms.text, rules.keywords)) return { optedOut: false, accounts: [] };
  const r = normalizePhone(sms.from, deps.settings.defaultRegion);
  if (!r.ok) return { optedOut: true, accounts: [] };
  const accounts = await deps.textedPhones.accountsThatTexted(r.phone);
  const at = deps.clock.now();
  await Promise.all(accounts.map((accountId) => deps.optOuts.addMany({ accountId, phones: [r.phone], source: 'keyword', at })));
  if (rules.reply && accounts.length > 0) await confirm(deps, rules, r.phone, at);
  return { optedOut: true, accounts };
}

/** The confirmation is a courtesy: its failure is logged, the opt-out stands. */
async function confirm(deps: Pick<OptOutDeps, 'logger'>, rules: InboundRules, phone: string, at: Date): Promise<void> {
  const { encoding, segments } = smsCost(rules.reply, { turkishShift: rules.provider.turkishShiftTable === true });
  const sms: OutgoingSms = {
    messageId: `opt-out.${phone}.${at.getTime()}`,
    accountId: '',
    sharingId: 'opt-out',
    to: phone,
    text: rules.reply,
    encoding,
    segments,
  };
  const answer = await rules.provider.send(sms).catch((err: Error) => ({ outcome: 'unknown' as const, reason: err.message }));
  // Without the phone: logs carry no personal data.
  if (answer.outcome !== 'accepted') deps.logger.warn({ outcome: answer.outcome }, 'opt-out confirmation not sent');
}

const isSource = (s: string): s is OptOutSource => (OPT_OUT_SOURCES as readonly string[]).includes(s);
