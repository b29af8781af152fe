/** The identifiers data.erasure.requested carries that messaging stores: phones (E.164 digits, no "+"). */
export interface MessagingErasure {
  erasureId: string;
  accountId: string;
  phones: string[];
}

/** Where messaging keeps a person's phone, as deletes and rewrites by account and phone. */
export interface MessagingPersonalData {
  /** Deletes the message records to the phones; the count and the sharings they belonged to. */
  deleteMessagesTo(accountId: string, phones: string[]): Promise<{ deleted: number; sharingIds: string[] }>;
  /** Takes the phones out of those sharings' recipient lists and out of every sharing's rejected list. */
  forgetRecipients(accountId: string, sharingIds: string[], phones: string[]): Promise<void>;
  /** Deletes what the recording provider was handed for the phones (sms_outbox). */
  deleteHandedOver(accountId: string, phones: string[]): Promise<number>;
  /**
   * Rewrites the phones' opt-outs to the keyed hash (`hashOf`), keeping their source and date, so
   * the phone stays suppressed without being stored; answers how many of the phones' opt-outs are
   * kept as hashes now (also those rewritten by an earlier run: a redelivery counts the same).
   */
  hashOptOuts(accountId: string, phones: string[], hashOf: (phone: string) => string): Promise<number>;
}

export interface MessagingErasureDeps {
  personalData: MessagingPersonalData;
  /** PersonalDataProtector.hash(phone, 'phone'): what the suppression check also looks for. */
  hashPhone: (phone: string) => string;
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
