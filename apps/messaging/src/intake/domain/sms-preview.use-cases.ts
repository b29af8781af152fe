import { attributeProblem, errors } from '@feedback/kit-core';
import type { IntakeDeps } from '../ports.js';
import type { SmsCampaign } from '../../shared/domain/sharing.js';
import { smsCost, type SmsCost } from '../../shared/domain/sms-encoding.js';
import { costSettings, renderSms, templateWarnings } from '../../shared/domain/sms-text.js';

type Deps = Pick<IntakeDeps, 'campaigns' | 'settings'>;

/** The sharing's rules for one phone's attributes (sharing.use-cases.ts). */
const MAX_ATTRIBUTES = 50;

export interface PreviewRequest {
  accountId: string;
  campaignId: string;
  /** One recipient's custom attributes, as a sharing gives them. */
  customAttributes: Record<string, string>;
  /** 0: the campaign's message; 1-3: that reminder's. */
  reminder: number;
}

export interface SmsPreview extends SmsCost {
  text: string;
}

/**
 * The message one recipient would get, and what it costs: the campaign's template (or the
 * reminder's own, else the campaign's) rendered as dispatch renders it (transliterated when the
 * campaign says so) with a placeholder as long as a real short link, costed as the deployment's
 * provider sends it. NOT_FOUND (campaign_id) for another account's campaign; INVALID_ARGUMENT
 * names `reminder` when the campaign has no such reminder.
 */
export async function previewSmsMessage(deps: Deps, req: PreviewRequest): Promise<SmsPreview> {
  checkAttributes(req.customAttributes);
  if (!Number.isInteger(req.reminder) || req.reminder < 0 || req.reminder > 3) throw errors.invalid({ reminder: 'must be 0-3' });
  const campaign = await deps.campaigns.findById(req.accountId, req.campaignId);
  if (!campaign) throw errors.notFound('campaign_id', req.campaignId);
  const template = templateOf(campaign, req.reminder);
  const cost = costSettings(deps.settings);
  const text = renderSms(template, req.customAttributes, cost.placeholderLink, campaign);
  return { text, ...smsCost(text, { turkishShift: cost.turkishShift }) };
}

/**
 * The warnings a campaign's templates earn (sms-text.ts templateWarnings): its message's and
 * each reminder's own, named by field. Campaign creation and update answer them.
 */
export function campaignWarnings(deps: Pick<Deps, 'settings'>, campaign: SmsCampaign): string[] {
  const opts = { ...costSettings(deps.settings), transliterate: campaign.transliterate };
  return [
    ...templateWarnings(campaign.messageTemplate, opts),
    ...campaign.reminders.flatMap((r, i) =>
      r.messageTemplate === null ? [] : templateWarnings(r.messageTemplate, { ...opts, field: `reminders[${i}].message_template` }),
    ),
  ];
}

function templateOf(campaign: SmsCampaign, reminder: number): string {
  if (reminder === 0) return campaign.messageTemplate;
  const rule = campaign.reminders[reminder - 1];
  if (!rule) throw errors.invalid({ reminder: `the campaign has ${campaign.reminders.length} reminders` });
  return rule.messageTemplate ?? campaign.messageTemplate;
}

function checkAttributes(attributes: Record<string, string>): void {
  const entries = Object.entries(attributes);
  if (entries.length > MAX_ATTRIBUTES) throw errors.invalid({ custom_attributes: `must have at most ${MAX_ATTRIBUTES} attributes` });
  // kit-core's rule, as a sharing checks them: a preview accepts what a sharing accepts.
  for (const [name, value] of entries) {
    const problem = attributeProblem(name, value);
    if (problem) throw errors.invalid({ [`custom_attributes.${name}`]: problem });
  }
}
