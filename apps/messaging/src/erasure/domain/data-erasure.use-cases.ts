import type { MessagingErasureDeps } from '../ports.js';

/** The identifiers data.erasure.requested carries that messaging stores: phones (E.164 digits, no "+"). */
export interface MessagingErasure {
  erasureId: string;
  accountId: string;
  phones: string[];
}

/**
 * Messaging's part of an erasure: the messages to the person's phones (with what the provider
 * was handed and the sharings' recipient entries) are deleted; an opt-out is not deleted but
 * kept as a keyed hash, since deleting it would let the next campaign text the person again.
 * Idempotent: a second run deletes nothing and counts the same opt-outs.
 */
export async function eraseMessagingData(
  deps: MessagingErasureDeps,
  r: MessagingErasure,
): Promise<{ messages: number; optOutsKept: number }> {
  const phones = [...new Set(r.phones.filter(Boolean))];
  if (phones.length === 0) return { messages: 0, optOutsKept: 0 };
  const optOutsKept = await deps.personalData.hashOptOuts(r.accountId, phones, deps.hashPhone);
  const { deleted, sharingIds } = await deps.personalData.deleteMessagesTo(r.accountId, phones);
  await deps.personalData.forgetRecipients(r.accountId, sharingIds, phones);
  await deps.personalData.deleteHandedOver(r.accountId, phones);
  return { messages: deleted, optOutsKept };
}
