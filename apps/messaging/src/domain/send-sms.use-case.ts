import type { Clock, MessageRepository, ProviderResult, SmsProvider } from './ports.js';
import { messageId } from './sms-message.js';

export interface SendDeps {
  messages: MessageRepository;
  provider: SmsProvider;
  clock: Clock;
}

export interface SendCommand {
  accountId: string;
  sharingId: string;
  campaignId: string;
  phone: string;
  text: string;
}

export type SendOutcome = 'sent' | 'already_handled' | 'unknown' | 'failed';

/** The provider refused before accepting; the caller (the Kafka consumer) retries with backoff. */
export class RetriableSendError extends Error {
  override name = 'RetriableSendError';
}

/**
 * Hands one SMS to the provider at most once per (sharing, phone): the message record is
 * claimed atomically before the call, so concurrent or redelivered events find it taken.
 * Only a refusal that certainly did not send (connection refused, an error status) releases
 * the record for another attempt; a timeout after the request left may have sent it, so it
 * ends as "unknown" instead of risking a second SMS.
 */
export async function sendSms(deps: SendDeps, cmd: SendCommand): Promise<SendOutcome> {
  const id = messageId(cmd.sharingId, cmd.phone);
  const now = deps.clock.now();
  const claimed = await deps.messages.claim(
    {
      id,
      accountId: cmd.accountId,
      sharingId: cmd.sharingId,
      campaignId: cmd.campaignId,
      phone: cmd.phone,
      text: cmd.text,
      provider: deps.provider.name,
      deliveryRule: deps.provider.deliveryRule,
      createdAt: now,
    },
    { takeOverSending: deps.provider.idempotent === true },
  );
  if (!claimed) return 'already_handled';

  let result: ProviderResult;
  try {
    result = await deps.provider.send({ messageId: id, accountId: cmd.accountId, sharingId: cmd.sharingId, to: cmd.phone, text: cmd.text });
  } catch (err) {
    // A provider adapter that throws broke its contract; whether it sent is unknown.
    result = { outcome: 'unknown', reason: (err as Error).message };
  }
  const finished = finishing(result);
  await deps.messages.finish(id, claimed.attempts, finished, deps.clock.now());
  if (finished.status === 'retryable') throw new RetriableSendError(`provider ${deps.provider.name} refused ${id}: ${finished.error}`);
  return finished.status;
}

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
