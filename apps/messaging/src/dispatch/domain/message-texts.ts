import type { DispatchDeps } from '../ports.js';
import type { LinkActivation } from '../../shared/ports.js';
import type { DispatchEvent, SmsCampaign } from '../../shared/domain/sharing.js';
import { messageId } from '../../shared/domain/sms-message.js';
import { renderSms } from '../../shared/domain/sms-text.js';
import { asError, UndeliverableEventError, type DispatchResult } from './dispatch-results.js';
import { reminderTexts } from './reminder-texts.js';

type Deps = Pick<DispatchDeps, 'campaigns' | 'sharings' | 'messages' | 'links' | 'shortener'>;

export type Ready = { index: number; campaign: SmsCampaign; text: string; link: string };

/** The texts of one campaign's events: their links activated and shortened in one call each; failures set in `results`. */
export async function prepare(deps: Deps, events: DispatchEvent[], indexes: number[], results: (DispatchResult | undefined)[]) {
  const first = events[indexes[0]!]!;
  const campaign = await deps.campaigns.findById(first.accountId, first.campaignId);
  if (!campaign) {
    for (const i of indexes)
      results[i] = new UndeliverableEventError(`campaign ${first.campaignId} of account ${first.accountId} does not exist`);
    return [];
  }
  if (first.reminder > 0) return prepareReminders(deps, campaign, events, indexes, results);
  const activated = await deps.links.activateMany(indexes.map((i) => activationOf(events[i]!, campaign)));
  const live: { index: number; url: string }[] = [];
  indexes.forEach((index, k) => {
    const url = activated[k];
    if (typeof url === 'string') live.push({ index, url });
    else results[index] = url ?? new Error('no activation answered');
  });
  if (live.length === 0) return [];
  const short = await deps.shortener.shortenMany(
    live.map((l) => l.url),
    first.accountId,
  );
  return live.flatMap(({ index }, k): Ready[] => {
    try {
      return [{ index, campaign, text: smsText(campaign, events[index]!, short[k]!), link: short[k]! }];
    } catch (err) {
      // The same template and attributes render the same way every time: no retry mends it.
      results[index] = new UndeliverableEventError(`the message could not be rendered: ${asError(err).message}`);
      return [];
    }
  });
}

/** The survey link activation the recipient's SMS needs. */
const activationOf = (event: DispatchEvent, campaign: SmsCampaign): LinkActivation => ({
  accountId: event.accountId,
  channelId: campaign.channelId,
  phone: event.recipient.phone,
  attributes: event.recipient.attributes,
  builtInResponses: event.recipient.builtInResponses,
  campaignId: campaign.id,
  sharingId: event.sharingId,
  messageId: messageId(event.sharingId, event.recipient.phone),
});

/** The campaign's template for the recipient (sms-text.ts: the link wins, and is never transliterated). */
const smsText = (campaign: SmsCampaign, event: DispatchEvent, link: string) =>
  renderSms(campaign.messageTemplate, event.recipient.attributes, link, campaign);

/** A reminder's texts (reminder-texts.ts); one that does not go out is answered "skipped" and leaves no record. */
async function prepareReminders(
  deps: Deps,
  campaign: SmsCampaign,
  events: DispatchEvent[],
  indexes: number[],
  results: (DispatchResult | undefined)[],
): Promise<Ready[]> {
  const texts = await reminderTexts(
    deps,
    campaign,
    indexes.map((i) => events[i]!),
    (template, event, link) => renderSms(template, event.recipient.attributes, link, campaign),
  );
  return indexes.flatMap((index, k): Ready[] => {
    const t = texts[k]!;
    if ('skipped' in t) {
      results[index] = 'skipped';
      return [];
    }
    return [{ index, campaign, text: t.text, link: t.link }];
  });
}
