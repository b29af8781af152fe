import type { DispatchDeps } from '../ports.js';
import type { DispatchEvent, SmsCampaign } from '../../shared/domain/sharing.js';
import { messageId } from '../../shared/domain/sms-message.js';

type Deps = Pick<DispatchDeps, 'sharings' | 'messages' | 'links'>;

/** A reminder's text and link, or why it does not go out. */
export type ReminderText = { text: string; link: string } | { skipped: string };

/**
 * The texts of one campaign's reminder events (all of one reminder and account). A reminder
 * goes only where the sharing was not cancelled, the recipient's first message went out (sent or
 * delivered, with its link), and its survey link is still active (not answered, not expired);
 * it carries the same short link. Its template is the reminder's own or the campaign's; a
 * reminder the campaign no longer has does not go out. A few round trips whatever the count:
 * one read of the sharing, of the first messages and of the links' states.
 */
export async function reminderTexts(
  deps: Deps,
  campaign: SmsCampaign,
  events: DispatchEvent[],
  render: (template: string, event: DispatchEvent, link: string) => string,
): Promise<ReminderText[]> {
  const first = events[0]!;
  const rule = campaign.reminders[first.reminder - 1];
  if (!rule) return events.map(() => ({ skipped: `the campaign has no reminder ${first.reminder}` }));
  const sharing = await deps.sharings.findById(first.accountId, first.sharingId);
  if (!sharing || sharing.cancelledAt) return events.map(() => ({ skipped: 'the sharing was cancelled' }));

  const firsts = new Map(
    (await deps.messages.findMany(events.map((e) => messageId(e.sharingId, e.recipient.phone)))).map((m) => [m.phone, m]),
  );
  const went = events.filter((e) => {
    const m = firsts.get(e.recipient.phone);
    return m?.link && (m.status === 'sent' || m.status === 'delivered');
  });
  const states =
    went.length > 0
      ? await deps.links.statesOf(
          first.accountId,
          campaign.channelId,
          went.map((e) => e.recipient.phone),
        )
      : [];
  const active = new Set(went.filter((_, k) => states[k] === 'active').map((e) => e.recipient.phone));
  const template = rule.messageTemplate ?? campaign.messageTemplate;
  return events.map((e) => {
    const m = firsts.get(e.recipient.phone);
    if (!m?.link || !(m.status === 'sent' || m.status === 'delivered')) return { skipped: 'its first message did not go out' };
    if (!active.has(e.recipient.phone)) return { skipped: 'its survey link is no longer active' };
    return { text: render(template, e, m.link), link: m.link };
  });
}
