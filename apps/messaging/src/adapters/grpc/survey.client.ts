import type { GrpcClient } from '@feedback/kit-grpc';
import { ChannelKind, type SurveyServiceClient } from '@feedback/proto/feedback/survey/v1/survey';
import type { SurveyChannels, SurveyLinks } from '../../domain/ports.js';

/** The survey service behind the domain's ports; the client carries deadlines and request ids. */
export function surveyPorts(client: GrpcClient<SurveyServiceClient>): SurveyChannels & SurveyLinks {
  return {
    async createSmsChannel(c) {
      const res = await client.createChannel({ ...c, kind: ChannelKind.CHANNEL_KIND_SMS });
      if (!res.channel) throw new Error('survey.CreateChannel answered without a channel');
      return res.channel.id;
    },
    async activate(a) {
      const { name = '', email = '', external_id: externalId = '', ...rest } = a.attributes;
      const res = await client.activateSurveyLink({
        accountId: a.accountId,
        channelId: a.channelId,
        customer: { phoneNumber: a.phone, email, externalId, name, schema: {} },
        customAttributes: rest,
        builtInResponses: a.builtInResponses,
      });
      return res.linkUrl;
    },
  };
}
