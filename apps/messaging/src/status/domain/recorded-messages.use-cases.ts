import type { PageRequest } from '@feedback/kit-core';
import { phonePage, SMS_MESSAGES_PAGE } from '../../shared/domain/phone-page.js';
import type { StatusDeps } from '../ports.js';
import type { RecordedMessagePage } from '../ports.js';

type Deps = Pick<StatusDeps, 'recordedMessages' | 'settings'>;

/** GET /admin/v1/accounts/{account_id}/sms_messages?phone=: the phone may be written any way a caller writes it. */
export async function listRecordedMessages(
  deps: Deps,
  q: { accountId: string; phone?: string } & Partial<PageRequest>,
): Promise<RecordedMessagePage> {
  const { phone, page } = phonePage(q, deps.settings.defaultRegion, SMS_MESSAGES_PAGE);
  return deps.recordedMessages.list({ accountId: q.accountId, ...(phone ? { phone } : {}), page });
}
