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
