import { errors } from '@feedback/kit-core';
import { parseIsoDuration, parseSendWindow, type SendWindow } from '../../shared/domain/send-window.js';
import type { CampaignReminder } from '../../shared/domain/sharing.js';
import { templateNames } from '../../shared/domain/sms-template.js';

/** An SMS is at most 10 concatenated parts in practice; a longer template is a mistake. */
export const MAX_TEMPLATE_LENGTH = 1_000;
export const MAX_REMINDERS = 3;

/** A message template's rules, the error naming `field`: 1-1,000 characters, with {{link}} (without it the SMS cannot lead to the survey). */
export function checkTemplate(template: string, field: string): void {
  if (!template.trim() || template.length > MAX_TEMPLATE_LENGTH)
    throw errors.invalid({ [field]: `must be 1-${MAX_TEMPLATE_LENGTH} characters` });
  if (!templateNames(template).includes('link')) throw errors.invalid({ [field]: 'must contain {{link}}' });
  // The text handed to the provider is kept (sms_messages, the outbox): a TCKN in it would rest in clear.
  if (templateNames(template).some((n) => n.toLowerCase() === 'tckn'))
    throw errors.invalid({ [field]: 'must not show {{tckn}}: the TCKN is never stored in clear, and the text of every SMS is' });
}

/** A campaign's send window as a caller gives it (the proto's fields); undefined: none. */
export interface SendWindowInput {
  start: string;
  end: string;
  timeZone: string;
  days: string[];
}

export function sendWindowOf(input: SendWindowInput | undefined): SendWindow | null {
  return input ? parseSendWindow(input) : null;
}

/**
 * A campaign's reminders: at most 3, each `after` an ISO 8601 duration (at most 30 days) later
 * than the one before, each with its own template or the campaign's (an empty one).
 */
export function remindersOf(input: { after: string; messageTemplate: string }[]): CampaignReminder[] {
  if (input.length > MAX_REMINDERS) throw errors.invalid({ reminders: `at most ${MAX_REMINDERS} reminders` });
  let previous = 0;
  return input.map((r, i) => {
    const { iso, ms } = parseIsoDuration(r.after, `reminders[${i}].after`);
    if (ms <= previous) throw errors.invalid({ [`reminders[${i}].after`]: 'must be later than the reminder before it' });
    previous = ms;
    if (r.messageTemplate) checkTemplate(r.messageTemplate, `reminders[${i}].message_template`);
    return { after: iso, afterMs: ms, messageTemplate: r.messageTemplate || null };
  });
}
