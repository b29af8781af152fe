import { AppError, errors } from '@feedback/kit-core';
import {
  checkActivation,
  linkActivation,
  surveyUrl,
  type Activation,
  type ActivationRequest,
  type CheckedActivation,
} from './activation.use-cases.js';
import type { Channel } from './channel.js';
import type { Customer } from './customer.js';
import { getChannel } from './channel.use-cases.js';
import { resolveCustomers } from './customer-batch-resolution.js';
import type { SurveyLink } from './link.js';
import type { LinkActivation, SurveyDeps } from './ports.js';
import { settle, settleNow, type Settled } from './settled.js';

const MAX_ACTIVATION_BATCH = 1_000;

/** One answer per request item: what activateSurveyLink would have answered for it alone. */
export type ActivationOutcome = { ok: Activation } | { error: AppError };

interface Ready {
  index: number;
  checked: CheckedActivation;
  channel: Channel;
}

function checkBatch(accountId: string, requests: ActivationRequest[]): void {
  if (requests.length > MAX_ACTIVATION_BATCH) throw errors.invalid({ items: `must have at most ${MAX_ACTIVATION_BATCH} items` });
  const foreign = requests.findIndex((r) => r.accountId !== accountId);
  if (foreign >= 0) throw errors.invalid({ [`items[${foreign}].account_id`]: 'must be the account_id of the request' });
}

/** Each distinct channel read once; an unknown one fails only its items. */
async function channelsOf(deps: SurveyDeps, accountId: string, channelIds: string[]): Promise<Map<string, Settled<Channel>>> {
  const ids = [...new Set(channelIds)];
  const channels = await Promise.all(ids.map((id) => settle(() => getChannel(deps, accountId, id))));
  return new Map(ids.map((id, i) => [id, channels[i]!]));
}

type LinkWrite = (activations: LinkActivation[]) => Promise<Array<SurveyLink | null>>;

/**
 * The links of the activated items in two bulk writes side by side: plain inserts for the links
 * of customers this call created (they cannot exist yet, and an insert costs the store a fraction
 * of an upsert), the upserts of a single activation for the others. A (channel, customer) pair
 * met again is activated again, after the first and in order, as a second call would
 * (activation + 2); a write refused because a concurrent caller's first activation got there
 * first is done alone (a re-activation, as a second call would be).
 */
async function activateLinks(
  deps: SurveyDeps,
  items: Array<{ ready: Ready; customer: Customer; created: boolean }>,
): Promise<SurveyLink[]> {
  const now = deps.clock.now();
  const writes = items.map(({ ready, customer }) => linkActivation(deps, ready.channel, customer.id, ready.checked, now));
  const createdNow = new Set(items.filter((it) => it.created).map((it) => it.customer.id));
  const seen = new Set<string>();
  const [fresh, known, again]: [number[], number[], number[]] = [[], [], []];
  writes.forEach((w, i) => {
    const pair = `${w.channelId}\0${w.customerId}`;
    (seen.has(pair) ? again : createdNow.has(w.customerId) ? fresh : known).push(i);
    seen.add(pair);
  });
  const links: SurveyLink[] = new Array(writes.length);
  const write = async (indexes: number[], bulk: LinkWrite) => {
    if (indexes.length === 0) return;
    const answers = await bulk(indexes.map((i) => writes[i]!));
    await Promise.all(indexes.map(async (i, k) => (links[i] = answers[k] ?? (await deps.links.activate(writes[i]!)))));
  };
  await Promise.all([write(fresh, (a) => deps.links.insertNew(a)), write(known, (a) => deps.links.activateMany(a))]);
  for (const i of again) links[i] = await deps.links.activate(writes[i]!);
  return links;
}

/**
 * activateSurveyLink for every item of one account's batch (messaging, per Kafka batch), with
 * the same outcome per item and a few round trips in all for the common case: each channel
 * read once, the customers resolved together (customer-batch-resolution.ts), the links written
 * in bulk (inserts for the new customers' links, upserts for the others'). More than
 * MAX_ACTIVATION_BATCH items, or an item of another account, refuse the whole batch.
 */
export async function activateSurveyLinks(
  deps: SurveyDeps,
  accountId: string,
  requests: ActivationRequest[],
): Promise<ActivationOutcome[]> {
  checkBatch(accountId, requests);
  const outcomes: ActivationOutcome[] = new Array(requests.length);
  const checks = requests.map((req) => settleNow(() => checkActivation(deps, req)));
  const channels = await channelsOf(
    deps,
    accountId,
    requests.filter((_, i) => !(checks[i] instanceof AppError)).map((r) => r.channelId),
  );

  const ready: Ready[] = [];
  requests.forEach((req, index) => {
    const check = checks[index]!;
    const channel = channels.get(req.channelId);
    if (check instanceof AppError) outcomes[index] = { error: check };
    else if (channel instanceof AppError) outcomes[index] = { error: channel };
    else ready.push({ index, checked: check, channel: channel! });
  });

  const resolutions = await resolveCustomers(
    deps,
    accountId,
    ready.map((r) => r.checked.facts),
  );
  const resolved = ready.flatMap((r, k) => {
    const resolution = resolutions[k]!;
    if (resolution instanceof AppError) {
      outcomes[r.index] = { error: resolution };
      return [];
    }
    return [{ ready: r, ...resolution }];
  });

  const links = await activateLinks(deps, resolved);
  resolved.forEach(({ ready: r, customer, created }, k) => {
    const link = links[k]!;
    outcomes[r.index] = { ok: { customer, created, link, url: surveyUrl(deps.config, link.token) } };
  });
  return outcomes;
}
