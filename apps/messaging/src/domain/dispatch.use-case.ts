import type { CampaignRepository, Clock, LinkShortener, MessageRepository, SmsProvider, StatusEvents, SurveyLinks } from './ports.js';
import { sendSms, type SendOutcome } from './send-sms.use-case.js';
import type { DispatchEvent } from './sharing.js';
import { messageId } from './sms-message.js';
import { renderTemplate } from './sms-template.js';

export interface DispatchDeps {
  campaigns: CampaignRepository;
  links: SurveyLinks;
  shortener: LinkShortener;
  messages: MessageRepository;
  provider: SmsProvider;
  statusEvents: StatusEvents;
  clock: Clock;
}

/** An event that can never be handled (its campaign is gone): dead-lettered, not retried. */
export class UndeliverableEventError extends Error {
  override name = 'UndeliverableEventError';
}

/**
 * One sms.dispatch event: activate the recipient's survey link, shorten it, render the
 * campaign's template, hand the SMS to the provider (at most once, see sendSms) and publish
 * the new status. Peer failures throw, so the consumer retries with backoff.
 */
export async function dispatchSms(deps: DispatchDeps, event: DispatchEvent): Promise<SendOutcome> {
  const { recipient } = event;
  // A redelivered event whose SMS is already handled does not activate the link again. One left
  // "sending" was interrupted (a crash between claim and answer): an idempotent provider gets
  // it again, so it arrives there exactly once; any other provider never sees it twice.
  const existing = await deps.messages.findById(messageId(event.sharingId, recipient.phone));
  const resumable = existing?.status === 'retryable' || (existing?.status === 'sending' && deps.provider.idempotent === true);
  if (existing && !resumable) return 'already_handled';

  const campaign = await deps.campaigns.findById(event.accountId, event.campaignId);
  if (!campaign) throw new UndeliverableEventError(`campaign ${event.campaignId} of account ${event.accountId} does not exist`);

  const url = await deps.links.activate({
    accountId: event.accountId,
    channelId: campaign.channelId,
    phone: recipient.phone,
    attributes: recipient.attributes,
    builtInResponses: recipient.builtInResponses,
  });
  const link = await deps.shortener.shorten(url, event.accountId);
  // The link wins over a custom attribute of the same name: the SMS must lead to the survey.
  const text = renderTemplate(campaign.messageTemplate, { ...recipient.attributes, link });

  let outcome: SendOutcome;
  try {
    outcome = await sendSms(deps, {
      accountId: event.accountId,
      sharingId: event.sharingId,
      campaignId: campaign.id,
      phone: recipient.phone,
      text,
    });
  } finally {
    // Also after a retriable refusal (status "retryable"), so watchers see every attempt.
    const msg = await deps.messages.findById(messageId(event.sharingId, recipient.phone));
    if (msg) await deps.statusEvents.changed(msg);
  }
  return outcome;
}
