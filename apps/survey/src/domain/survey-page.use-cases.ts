import { AppError } from '@feedback/kit-core';
import { validateAnswers } from './answer-rules.js';
import type { Flow } from './flow.js';
import { looksLikeToken } from './ids.js';
import { linkState, type LinkState, type SurveyLink } from './link.js';
import type { SurveyDeps } from './ports.js';
import type { AnswerValue, SurveyResponse } from './response.js';
import { alreadyAnswered, linkExpired } from './survey-errors.js';

interface SurveyPage {
  state: LinkState;
  link: SurveyLink;
  flow: Flow;
  customerName: string;
  /** The customer's language when known, else ''. */
  language: string;
  /** The phone the link was texted to when its channel is of kind SMS (the page's "do not text me again"), else ''. */
  smsPhone: string;
}

async function linkByToken(deps: Pick<SurveyDeps, 'links'>, token: string): Promise<SurveyLink> {
  const link = looksLikeToken(token) ? await deps.links.findByToken(token) : null;
  if (!link) throw new AppError('not_found', undefined, { token: 'unknown survey link' });
  return link;
}

async function flowOf(deps: Pick<SurveyDeps, 'flows'>, link: SurveyLink): Promise<Flow> {
  const flow = await deps.flows.get(link.accountId, link.flowId);
  // Flows are never deleted: a link whose flow is missing is a fault, not a user error.
  if (!flow) throw new AppError('internal', `flow ${link.flowId} of link ${link.id} not found`);
  return flow;
}

export async function getSurveyPage(
  deps: Pick<SurveyDeps, 'links' | 'flows' | 'customers' | 'channels' | 'clock'>,
  token: string,
): Promise<SurveyPage> {
  const link = await linkByToken(deps, token);
  const [flow, customer, channel] = await Promise.all([
    flowOf(deps, link),
    deps.customers.findById(link.accountId, link.customerId),
    deps.channels.findById(link.accountId, link.channelId),
  ]);
  const language = customer?.attributes.language ?? customer?.schema.language ?? '';
  // The phone the SMS went to (the link's activation), else the customer's.
  const smsPhone = channel?.kind === 'sms' ? (link.phone ?? customer?.phone ?? '') : '';
  return { state: linkState(link, deps.clock.now()), link, flow, customerName: customer?.name ?? '', language, smsPhone };
}

type SubmitDeps = Pick<SurveyDeps, 'links' | 'flows' | 'responses' | 'events' | 'clock' | 'newId' | 'logger' | 'config'>;

/**
 * Stores the answers of the link's current activation and marks the link answered. The
 * response's unique (link, activation) key is what makes a second submit fail, also when two
 * race; the link's answered_at follows it (and is repaired by a retried submit).
 */
export async function submitAnswers(deps: SubmitDeps, token: string, answers: AnswerValue[]): Promise<SurveyResponse> {
  const link = await linkByToken(deps, token);
  const now = deps.clock.now();
  const state = linkState(link, now);
  if (state === 'answered') throw alreadyAnswered();
  if (state === 'expired') throw linkExpired();
  const flow = await flowOf(deps, link);
  const response: SurveyResponse = {
    id: deps.newId(),
    accountId: link.accountId,
    flowId: link.flowId,
    channelId: link.channelId,
    nodeId: link.nodeId,
    customerId: link.customerId,
    linkId: link.id,
    activation: link.activation,
    answers: validateAnswers(flow, answers, deps.config.defaultPhoneRegion),
    builtInResponses: link.builtInResponses,
    answeredAt: now,
    ...(link.context ? { context: link.context } : {}),
  };
  if ((await deps.responses.insert(response)) === 'duplicate') {
    await deps.links.markAnswered(link.id, link.activation, now);
    throw alreadyAnswered();
  }
  await deps.links.markAnswered(link.id, link.activation, now);
  await publishAnswered(deps, response);
  return response;
}

/** Best effort here; republishAnswered() retries what did not go out, under the same event id. */
async function publishAnswered(deps: Pick<SubmitDeps, 'events' | 'responses' | 'logger'>, response: SurveyResponse) {
  try {
    await deps.events.answered(response);
    await deps.responses.markPublished(response.id);
  } catch (err) {
    deps.logger.warn({ err, response_id: response.id }, 'survey.answered not published yet; the outbox job retries');
  }
}

/** Publishes survey.answered for responses older than `olderThanMs` whose own try failed. */
export async function republishAnswered(
  deps: Pick<SubmitDeps, 'events' | 'responses' | 'logger' | 'clock'>,
  olderThanMs = 60_000,
  limit = 100,
) {
  const due = await deps.responses.unpublished(new Date(deps.clock.now().getTime() - olderThanMs), limit);
  for (const response of due) await publishAnswered(deps, response);
  return due.length;
}
