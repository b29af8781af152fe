import { errors } from '@feedback/kit-core';
import { getChannel } from './channel.use-cases.js';
import { linkState, type LinkState, type SurveyLink } from './link.js';
import type { SurveyDeps } from './ports.js';

/** Phones per call: one indexed query reads their links. */
export const MAX_LINK_STATE_PHONES = 1_000;

/** A phone's link state; `none` when the channel has no link activated for that phone. */
export type PhoneLinkState = LinkState | 'none';

type Deps = Pick<SurveyDeps, 'channels' | 'links' | 'clock'>;

/**
 * The state of each phone's link of one channel, in the order of `phones`, without activating
 * anything (messaging's reminders and a sharing's funnel). A link is found by the phone it was
 * last activated for, the one messaging texted, not by the customer's stored phone. Should two
 * customers' links carry one phone (an external id moved it), the last activated one counts.
 * NOT_FOUND (channel_id) for an unknown or another account's channel; INVALID_ARGUMENT (phones)
 * above MAX_LINK_STATE_PHONES.
 */
export async function surveyLinkStates(
  deps: Deps,
  q: { accountId: string; channelId: string; phones: string[] },
): Promise<PhoneLinkState[]> {
  if (q.phones.length > MAX_LINK_STATE_PHONES) throw errors.invalid({ phones: `must have at most ${MAX_LINK_STATE_PHONES} items` });
  const channel = await getChannel(deps, q.accountId, q.channelId);
  const links = await deps.links.findByPhones(q.accountId, channel.id, [...new Set(q.phones)]);
  const latest = new Map<string, SurveyLink>();
  for (const link of links) {
    const known = latest.get(link.phone!);
    if (!known || known.activatedAt < link.activatedAt) latest.set(link.phone!, link);
  }
  const now = deps.clock.now();
  return q.phones.map((phone) => {
    const link = latest.get(phone);
    return link ? linkState(link, now) : 'none';
  });
}
