import { errors } from '@feedback/kit-core';
import { normalizePhone } from '@feedback/kit-phone';
import type { MessagingDeps, RecordedMessagePage } from './ports.js';

type Deps = Pick<MessagingDeps, 'recordedMessages' | 'settings'>;

/** GET /admin/v1/accounts/{account_id}/sms_messages?phone=: the phone may be written any way a caller writes it. */
export async function listRecordedMessages(
  deps: Deps,
  q: { accountId: string; phone?: string; limit?: number; cursor?: string },
): Promise<RecordedMessagePage> {
  let phone: string | undefined;
  if (q.phone !== undefined && q.phone !== '') {
    const r = normalizePhone(q.phone, deps.settings.defaultRegion);
    if (!r.ok) throw errors.invalid({ phone: r.reason });
    phone = r.phone;
  }
  const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
  return deps.recordedMessages.list({ accountId: q.accountId, phone, limit, cursor: q.cursor });
}
