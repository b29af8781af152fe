import { phonePage } from '../../shared/domain/phone-page.js';
import type { StatusDeps } from '../ports.js';
import type { RecordedMessagePage } from '../../providers/ports.js';

type Deps = Pick<StatusDeps, 'recordedMessages' | 'settings'>;

/** GET /admin/v1/accounts/{account_id}/sms_messages?phone=: the phone may be written any way a caller writes it. */
export async function listRecordedMessages(
  deps: Deps,
  q: { accountId: string; phone?: string; limit?: number; cursor?: string },
): Promise<RecordedMessagePage> {
  const { phone, limit } = phonePage(q, deps.settings.defaultRegion);
  return deps.recordedMessages.list({ accountId: q.accountId, phone, limit, cursor: q.cursor });
}
