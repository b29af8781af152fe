import { ATTRIBUTE_LIMITS, attributeNameProblem, attributeProblem, errors, nameBasedUuid, type AppError } from '@feedback/kit-core';
import { normalizePhoneList } from '@feedback/kit-phone';
import type { IntakeDeps } from '../ports.js';
import type { SharingJob } from '../../scheduling/ports.js';
import { nextSendTime, parseSendAt } from '../../shared/domain/send-window.js';
import type { Recipient, RejectedPhone, SharingSummary, SmsCampaign, SmsSharing } from '../../shared/domain/sharing.js';

type Deps = Pick<IntakeDeps, 'campaigns' | 'sharings' | 'dispatch' | 'jobs' | 'clock' | 'newId' | 'settings' | 'optOuts'>;

/**
 * The sharing request (docs/api.md "SMS sharing"), typed: the gRPC handler decodes it from
 * CreateSmsSharingRequest, a CSV workflow makes it from a file's rows. Phones are as the caller
 * wrote them (normalized later, one by one); attributes and built-in responses are keyed by the
 * phone as written.
 */
export interface SharingRequest {
  phoneNumbers: string[];
  customAttributes: Record<string, Record<string, string>>;
  builtInResponses: Record<string, Record<string, string>>;
}

/** A sharing to create: the request (typed, its rules checked here) and who asks for it. */
export interface CreateSharingCommand extends SharingRequest {
  accountId: string;
  campaignId: string;
  /** Given by a CSV workflow, where it is also the file's claimer; new otherwise. */
  sharingId?: string;
  /** Entries the source already refused (a CSV workflow's bad rows), kept with the sharing's own. */
  rejected?: RejectedPhone[];
  /**
   * The caller's Idempotency-Key with a digest of its request: the sharing's id is derived from
   * it and the account, so a create repeated after a lost answer stores the same sharing again
   * (nothing doubled) and republishes its events, which the per-(sharing, phone) claim keeps
   * from reaching the provider twice.
   */
  requestKey?: string;
  /** ISO 8601 with an offset, within 30 days (send-window.ts parseSendAt); absent: now. */
  sendAt?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Phones normalized per slice: each slice's recipients are written, and their events encoded,
 * while the next slice is normalized, so the database works alongside this process.
 */
const SLICE = 1_000;

/**
 * POST /v1/sms_campaigns/{campaign_id}/sms_sharings: validates, normalizes and de-duplicates the
 * phones, stores the sharing, and publishes one dispatch event per recipient before answering,
 * so a 200 means every accepted phone will be attempted. Nothing is published before the whole
 * sharing is stored: a failed write answers an error with no SMS on its way.
 *
 * A sharing due later (its send_at, or the campaign's send window closed now) publishes nothing:
 * a step is stored for its due time (scheduled-steps.use-cases.ts releases it then), and one per
 * reminder of the campaign, `after` the first messages' due time. The steps are stored before
 * anything is published, so a sharing that was answered has every step it needs.
 */
export async function createSharing(deps: Deps, cmd: CreateSharingCommand): Promise<SharingSummary> {
  if (!UUID.test(cmd.campaignId)) throw errors.invalid({ campaign_id: 'must be a UUID' });
  checkSharingRequest(cmd, { maxPhones: deps.settings.maxPhones });
  const now = deps.clock.now();
  const sendAt = cmd.sendAt ? parseSendAt(cmd.sendAt, now) : now;
  const campaign = await deps.campaigns.findById(cmd.accountId, cmd.campaignId);
  if (!campaign) throw errors.notFound('campaign_id', cmd.campaignId);
  const due = nextSendTime(campaign.sendWindow ?? deps.settings.defaultSendWindow, sendAt);
  const deferred = due.getTime() > now.getTime();

  const id = cmd.sharingId ?? (cmd.requestKey ? sharingIdFor(cmd.accountId, cmd.requestKey) : deps.newId());
  // Only a deferred sharing needs its recipients' sensitive attributes again (sealed, until released).
  const writer = deps.sharings.writeRecipients(id, { keepSensitive: deferred });
  const events = deps.dispatch.batch();
  const seen = new Set<string>();
  const rejected = [...(cmd.rejected ?? [])];
  let accepted = 0;
  let duplicates = 0;
  // Each slice's recipients, once its suppression-list lookup answers: written, and their events
  // encoded, while the next slice is normalized and looked up.
  const take = async ({ list, optedOut }: LookedUp) => {
    const listed = await optedOut;
    for (const { phone, input } of list.accepted) if (listed.has(phone)) rejected.push({ phone: input, reason: 'opted_out' });
    const recipients: Recipient[] = list.accepted
      .filter(({ phone }) => !listed.has(phone))
      .map(({ phone, input }) => ({
        phone,
        input,
        attributes: cmd.customAttributes[input] ?? {},
        builtInResponses: cmd.builtInResponses[input] ?? {},
      }));
    rejected.push(...list.rejected);
    accepted += recipients.length;
    duplicates += list.duplicates;
    if (recipients.length === 0) return;
    await writer.add(recipients);
    if (!deferred)
      events.add(
        recipients.map((recipient) => ({ sharingId: id, accountId: cmd.accountId, campaignId: campaign.id, recipient, reminder: 0 })),
      );
  };
  let previous: LookedUp | undefined;
  for (let from = 0; from < cmd.phoneNumbers.length; from += SLICE) {
    const list = normalizePhoneList(cmd.phoneNumbers.slice(from, from + SLICE), deps.settings.defaultRegion, seen);
    // The account's suppression list, one indexed query per slice: its phones are rejected, not texted.
    const optedOut = deps.optOuts.findOptedOut(
      cmd.accountId,
      list.accepted.map((p) => p.phone),
    );
    optedOut.catch(() => {}); // awaited by take(); until then it must not count as unhandled
    if (previous) await take(previous);
    previous = { list, optedOut };
  }
  if (previous) await take(previous);
  const sharing: SmsSharing = {
    id,
    accountId: cmd.accountId,
    campaignId: campaign.id,
    createdAt: deps.clock.now(),
    accepted,
    duplicates,
    rejected,
    scheduledFor: deferred ? due : null,
    cancelledAt: null,
  };
  await writer.complete(sharing);
  if (accepted > 0) await deps.jobs.schedule(stepsOf(sharing, campaign, due, deferred));
  if (!deferred) await events.send();
  return { id, accepted, rejected: rejected.length, duplicate: duplicates, rejectedPhones: rejected, scheduledFor: sharing.scheduledFor };
}

/** The sharing's waiting steps: its first messages when deferred, and the campaign's reminders. */
function stepsOf(sharing: SmsSharing, campaign: SmsCampaign, due: Date, deferred: boolean): SharingJob[] {
  const step = (reminder: number, at: number): SharingJob => ({
    id: `${sharing.id}.j${reminder}`,
    accountId: sharing.accountId,
    sharingId: sharing.id,
    campaignId: campaign.id,
    reminder,
    dueAt: new Date(at),
  });
  return [...(deferred ? [step(0, due.getTime())] : []), ...campaign.reminders.map((r, k) => step(k + 1, due.getTime() + r.afterMs))];
}

/** A slice of normalized phones and the lookup of its phones on the suppression list. */
type LookedUp = { list: ReturnType<typeof normalizePhoneList>; optedOut: Promise<Set<string>> };

/** A UUID (version 8, name-based on SHA-256) of the account and the request key. */
function sharingIdFor(accountId: string, requestKey: string): string {
  return nameBasedUuid(`${accountId}\n${requestKey}`);
}

/**
 * The rules of a request (docs/decisions.md "SMS sharing"): per phone at most 50 attributes of at
 * most 1,000 characters each, named and valued by kit-core's attribute rule.
 */
const MAX_ATTRIBUTES = 50;
const MAX_VALUE_LENGTH = ATTRIBUTE_LIMITS.valueLength;

/**
 * The rules of a request the service enforces itself, whoever calls it (the gateway checks the
 * body's shape, but another gRPC caller may not): at least one phone and at most `maxPhones`, at
 * most 50 attributes per phone, values of at most 1,000 characters, names and the values the
 * survey service copies onto the customer (name, email, external_id) by kit-core's attribute
 * rule (customer-attributes.ts), so no event is refused at dispatch for them. Errors are INVALID_ARGUMENT
 * naming the field as the API's body does (`phone_numbers`, `custom_attributes.<phone>.<name>`).
 */
function checkSharingRequest(request: SharingRequest, limits: { maxPhones: number }): void {
  const phones = request.phoneNumbers;
  if (phones.length === 0) throw invalid('phone_numbers', 'must not be empty');
  if (phones.length > limits.maxPhones) {
    throw invalid('phone_numbers', `has ${phones.length} entries; at most ${limits.maxPhones} are allowed per request (5,000 recommended)`);
  }
  checkPerPhone(request.customAttributes, 'custom_attributes');
  checkPerPhone(request.builtInResponses, 'built_in_responses');
}

function checkPerPhone(value: Record<string, Record<string, string>>, field: string): void {
  for (const [phone, attrs] of Object.entries(value)) {
    const where = `${field}.${phone}`;
    const entries = Object.entries(attrs);
    if (entries.length > MAX_ATTRIBUTES) throw invalid(where, `has more than ${MAX_ATTRIBUTES} attributes`);
    for (const [name, v] of entries) {
      // kit-core's rule, the survey service's own: what it would refuse at dispatch is refused here.
      const problem =
        field === 'custom_attributes'
          ? attributeProblem(name, v)
          : (attributeNameProblem(name) ?? (v.length > MAX_VALUE_LENGTH ? `must be at most ${MAX_VALUE_LENGTH} characters` : undefined));
      if (problem) throw invalid(`${where}.${name}`, problem);
    }
  }
}

function invalid(field: string, why: string): AppError {
  return errors.invalid({ [field]: why });
}
