import type {
  CampaignRepository,
  Clock,
  LinkShortener,
  MessageRepository,
  SmsProvider,
  SmsProviderResolver,
  StatusEvents,
  SurveyLinks,
} from './ports.js';
import { sendSms, type SendOutcome } from './send-sms.use-case.js';
import type { DispatchEvent, SmsCampaign } from './sharing.js';
import { messageId, type SmsMessage } from './sms-message.js';
import { renderTemplate } from './sms-template.js';

export interface DispatchDeps {
  campaigns: CampaignRepository;
  links: SurveyLinks;
  shortener: LinkShortener;
  messages: MessageRepository;
  /** The account's own provider or the deployment's. */
  providers: SmsProviderResolver;
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
  // Before the claim: the claim is taken for the provider that then gets the message.
  const provider = await deps.providers.forAccount(event.accountId);
  if (existing && !isResumable(existing, provider)) return 'already_handled';

  const campaign = await deps.campaigns.findById(event.accountId, event.campaignId);
  if (!campaign) throw new UndeliverableEventError(`campaign ${event.campaignId} of account ${event.accountId} does not exist`);

  const url = await deps.links.activate(activationOf(event, campaign));
  const text = smsText(campaign, event, await deps.shortener.shorten(url, event.accountId));

  let outcome: SendOutcome;
  try {
    outcome = await sendSms(
      { ...deps, provider },
      {
        accountId: event.accountId,
        sharingId: event.sharingId,
        campaignId: campaign.id,
        phone: recipient.phone,
        text,
      },
    );
  } finally {
    // Also after a retriable refusal (status "retryable"), so watchers see every attempt.
    const msg = await deps.messages.findById(messageId(event.sharingId, recipient.phone));
    if (msg) await deps.statusEvents.changed(msg);
  }
  return outcome;
}

/**
 * A message record that may be handed over again: its attempt certainly did not send, or the
 * provider absorbs a repeat: the same idempotent provider that claimed it (the account's provider
 * may have changed since; another one would get the message a second time).
 */
export const isResumable = (m: SmsMessage, provider: SmsProvider) =>
  m.status === 'retryable' || (m.status === 'sending' && provider.idempotent === true && m.provider === provider.name);

/** The survey link activation the recipient's SMS needs. */
export const activationOf = (event: DispatchEvent, campaign: SmsCampaign): Parameters<SurveyLinks['activate']>[0] => ({
  accountId: event.accountId,
  channelId: campaign.channelId,
  phone: event.recipient.phone,
  attributes: event.recipient.attributes,
  builtInResponses: event.recipient.builtInResponses,
});

/** The campaign's template for the recipient. The link wins over a custom attribute of the same name: the SMS must lead to the survey. */
export const smsText = (campaign: SmsCampaign, event: DispatchEvent, link: string) =>
  renderTemplate(campaign.messageTemplate, { ...event.recipient.attributes, link });
