import { errors } from '@feedback/kit-core';
import type { MessagingDeps } from './ports.js';
import type { SmsSharing } from './sharing.js';
import { messageId, type MessageStatus } from './sms-message.js';

type Deps = Pick<MessagingDeps, 'sharings' | 'messages'>;

export interface RecipientStatus {
  phone: string;
  /** "queued" until the dispatcher has claimed the message. */
  status: MessageStatus | 'queued';
  error: string | null;
  updatedAt: Date | null;
}

/** GET /v1/sms_sharings/{id}: the sharing and where each recipient's SMS stands. */
export async function getSharingStatus(
  deps: Deps,
  accountId: string,
  sharingId: string,
): Promise<{ sharing: SmsSharing; recipients: RecipientStatus[] }> {
  const sharing = await deps.sharings.findById(accountId, sharingId);
  if (!sharing) throw errors.notFound('sharing_id', sharingId);
  const [phones, messages] = await Promise.all([deps.sharings.listRecipientPhones(sharing.id), deps.messages.listBySharing(sharing.id)]);
  const byId = new Map(messages.map((m) => [m.id, m]));
  const recipients = phones.map((phone): RecipientStatus => {
    const m = byId.get(messageId(sharing.id, phone));
    return m
      ? { phone, status: m.status, error: m.error, updatedAt: m.updatedAt }
      : { phone, status: 'queued', error: null, updatedAt: null };
  });
  return { sharing, recipients };
}
