import type { PageRequest } from '@feedback/kit-core';
import { phonePage, SMS_MESSAGES_PAGE } from '../../shared/domain/phone-page.js';
import type { StatusDeps } from '../ports.js';
import type { RecordedMessagePage } from '../ports.js';

type Deps = Pick<StatusDeps, 'recordedMessages' | 'messages' | 'settings'>;

/**
 * GET /admin/v1/accounts/{account_id}/sms_messages?phone=: the phone may be written any way a
 * caller writes it. Each entry shows its message record's status and errors (a delivery report
 * may have moved it past `sent`), read in one lookup for the page.
 */
export async function listRecordedMessages(
  deps: Deps,
  q: { accountId: string; phone?: string } & Partial<PageRequest>,
): Promise<RecordedMessagePage> {
  const { phone, page } = phonePage(q, deps.settings.defaultRegion, SMS_MESSAGES_PAGE);
  const recorded = await deps.recordedMessages.list({ accountId: q.accountId, ...(phone ? { phone } : {}), page });
  const records = new Map((await deps.messages.findMany(recorded.items.map((m) => m.messageId))).map((m) => [m.id, m]));
  return {
    ...recorded,
    items: recorded.items.map((m) => {
      const r = records.get(m.messageId);
      // Another account's record under the same id cannot exist (the id holds the sharing), but check anyway.
      if (!r || r.accountId !== m.accountId) return m;
      return { ...m, status: r.status, error: r.error, ...(r.deliveryError && { deliveryError: r.deliveryError }) };
    }),
  };
}
