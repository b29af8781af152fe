import type { AccountRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { CampaignChannels, type CampaignsPort } from './campaign-channels.js';
import { npsAdminRoutes } from './nps-admin.routes.js';
import type { FlowQuestionsPort, ResponsesPort } from './responses.port.js';
import { responsesRoutes } from './responses.routes.js';
import { SurveyResponseSchema } from './responses.schemas.js';

export interface ResponsesFeatureDeps {
  /** The survey service, which owns the responses. */
  surveys: ResponsesPort;
  /** The flow service: the export's columns. */
  flows: FlowQuestionsPort;
  /** The admin NPS route checks the account exists. */
  accounts: AccountRepository;
  /** The messaging service: an SMS campaign's survey channel (campaign_id, channel_id naming a campaign). */
  campaigns: CampaignsPort;
}

/** The responses API for integrators (docs/api.md "Responses"), with the API token; the NPS for operators too. */
export function responsesFeature(deps: ResponsesFeatureDeps): ApiFeature {
  const campaigns = new CampaignChannels(deps.campaigns);
  return {
    schemas: [SurveyResponseSchema],
    routes: (ctx) => responsesRoutes({ ...deps, campaigns, ...ctx }),
    adminRoutes: npsAdminRoutes({ ...deps, campaigns }),
  };
}
