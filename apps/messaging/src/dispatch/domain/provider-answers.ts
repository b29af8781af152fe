import type { OutgoingSms, ProviderResult, SmsProvider } from '../../providers/ports.js';
import type { NewMessage } from '../../shared/ports.js';
import type { DispatchEvent } from '../../shared/domain/sharing.js';
import { smsCost, type SmsEncoding } from '../../shared/domain/sms-encoding.js';
import { RetriableSendError, type DispatchResult } from './dispatch-results.js';
import type { Ready } from './message-texts.js';

/** Hand-overs in flight at once for a provider without a bulk send (an HTTP gateway). */
const SEND_CONCURRENCY = 16;

/** The record of a message about to be handed over, with what its final text costs at that provider. */
export const newMessage = (r: Ready, event: DispatchEvent, id: string, provider: SmsProvider, now: Date): NewMessage => ({
  ...costAt(provider, r.text),
  id,
  accountId: event.accountId,
  sharingId: event.sharingId,
  campaignId: r.campaign.id,
  phone: event.recipient.phone,
  text: r.text,
  provider: provider.name,
  deliveryRule: provider.deliveryRule,
  createdAt: now,
  link: r.link,
  ...(event.reminder > 0 && { reminder: event.reminder }),
});

/** What a provider's answer makes of the message record: sent, unknown (maybe sent), failed, or retryable (certainly not sent). */
export function finishing(r: ProviderResult): {
  status: 'sent' | 'retryable' | 'unknown' | 'failed';
  providerMessageId?: string;
  error?: string;
} {
  switch (r.outcome) {
    case 'accepted':
      return { status: 'sent', providerMessageId: r.providerMessageId };
    case 'unknown':
      return { status: 'unknown', error: r.reason };
    case 'rejected':
      return { status: r.retriable ? 'retryable' : 'failed', error: r.reason };
  }
}

/** The event's result: a retriable refusal is an error, so the consumer retries it with backoff. */
export function resultOf(r: ProviderResult, provider: SmsProvider): DispatchResult {
  const { status, error } = finishing(r);
  // Logged with every retry: neither the message id (it holds the phone) nor the provider's answer
  // body (it may echo the phone or the text), only what comes before its first colon ("HTTP 503").
  const why = (error ?? '').split(':')[0]!.slice(0, 100);
  return status === 'retryable' ? new RetriableSendError(`provider ${provider.name} refused the message for now: ${why}`) : status;
}

/** The encoding and segments of a text as the provider sends it (gsm7-tr only where it declares the shift table). */
function costAt(provider: SmsProvider, text: string): { encoding: SmsEncoding; segments: number } {
  const { encoding, segments } = smsCost(text, { turkishShift: provider.turkishShiftTable === true });
  return { encoding, segments };
}

export const outgoing = (m: NewMessage, provider: SmsProvider): OutgoingSms => ({
  messageId: m.id,
  accountId: m.accountId,
  sharingId: m.sharingId,
  to: m.phone,
  text: m.text,
  // Every record this dispatcher claims has its cost; computed again only for one claimed before it was kept.
  ...(m.encoding && m.segments !== undefined ? { encoding: m.encoding, segments: m.segments } : costAt(provider, m.text)),
});

/**
 * The provider's bulk send when it has one; else one hand-over each, a few at a time. A throw
 * (a provider adapter that broke its contract) is an unknown outcome: whether it sent is unknown.
 */
export async function sendAll(provider: SmsProvider, sms: OutgoingSms[]): Promise<ProviderResult[]> {
  const unknown = (err: unknown): ProviderResult => ({ outcome: 'unknown', reason: (err as Error).message });
  if (provider.sendMany) {
    try {
      return await provider.sendMany(sms);
    } catch (err) {
      return sms.map(() => unknown(err));
    }
  }
  const answered = new Array<ProviderResult>(sms.length);
  let next = 0;
  const worker = async () => {
    while (next < sms.length) {
      const i = next++;
      answered[i] = await provider.send(sms[i]!).catch(unknown);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, sms.length) }, worker));
  return answered;
}
