import { status } from '@grpc/grpc-js';
import { AppError, kindForGrpcStatus } from '@feedback/kit-core';
import type { GrpcClient } from '@feedback/kit-grpc';
import { ChannelKind, LinkState, type SurveyServiceClient } from '@feedback/proto/feedback/survey/v1/survey';
import type { SurveyChannels } from '../../ports.js';
import type { LinkActivation, SurveyLinks, SurveyLinkState } from '../../ports.js';

/** A batch call (one per Kafka batch of sms.dispatch) does the work of hundreds of single ones. */
const BATCH_DEADLINE_MS = 30_000;

/** GetSurveyLinkStates' limit per call. */
const STATES_PER_CALL = 1_000;

const stateOf: Record<LinkState, SurveyLinkState> = {
  [LinkState.LINK_STATE_ACTIVE]: 'active',
  [LinkState.LINK_STATE_ANSWERED]: 'answered',
  [LinkState.LINK_STATE_EXPIRED]: 'expired',
  [LinkState.LINK_STATE_UNSPECIFIED]: 'none',
  [LinkState.UNRECOGNIZED]: 'none',
};

/**
 * One refused item as the AppError of its gRPC status name, so dispatch tells a refusal that
 * will never change (INVALID_ARGUMENT, NOT_FOUND, FAILED_PRECONDITION) from one worth retrying.
 */
function itemError(code: string, message: string): AppError {
  const grpc = (status as unknown as Record<string, number | undefined>)[code];
  return new AppError(grpc === undefined ? 'internal' : kindForGrpcStatus(grpc), `${code || 'UNKNOWN'}: ${message}`);
}

/** The survey service behind the domain's ports; the client carries deadlines and request ids. */
export function surveyPorts(client: GrpcClient<SurveyServiceClient>): SurveyChannels & SurveyLinks {
  return {
    async createSmsChannel(c) {
      const res = await client.createChannel({ ...c, kind: ChannelKind.CHANNEL_KIND_SMS });
      if (!res.channel) throw new Error('survey.CreateChannel answered without a channel');
      return res.channel.id;
    },
    async activateMany(items) {
      if (items.length === 0) return [];
      const res = await client.activateSurveyLinks(
        { accountId: items[0]!.accountId, items: items.map(activation) },
        { deadlineMs: BATCH_DEADLINE_MS },
      );
      if (res.results.length !== items.length)
        throw new Error(`survey.ActivateSurveyLinks answered ${res.results.length} results for ${items.length}`);
      return res.results.map((r) => (r.linkUrl ? r.linkUrl : itemError(r.errorCode, r.errorMessage)));
    },
    async statesOf(accountId, channelId, phones) {
      const chunks: string[][] = [];
      for (let i = 0; i < phones.length; i += STATES_PER_CALL) chunks.push(phones.slice(i, i + STATES_PER_CALL));
      const answers = await Promise.all(
        chunks.map(async (chunk) => {
          const res = await client.getSurveyLinkStates({ accountId, channelId, phones: chunk });
          if (res.states.length !== chunk.length)
            throw new Error(`survey.GetSurveyLinkStates answered ${res.states.length} states for ${chunk.length} phones`);
          return res.states.map((s) => stateOf[s] ?? 'none');
        }),
      );
      return answers.flat();
    },
  };
}

/**
 * The survey service's activation request: the sharing's attributes as given. The survey service
 * decides which of them are also the customer's own fields (name, email, external_id, schema fields
 * such as TCKN), the same way for every path that activates a link.
 */
function activation(a: LinkActivation) {
  return {
    accountId: a.accountId,
    channelId: a.channelId,
    customer: { phoneNumber: a.phone, email: '', externalId: '', name: '', schema: {} },
    customAttributes: a.attributes,
    builtInResponses: a.builtInResponses,
    campaignId: a.campaignId,
    sharingId: a.sharingId,
    messageId: a.messageId,
  };
}
