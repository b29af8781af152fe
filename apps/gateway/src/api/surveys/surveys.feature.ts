import type { AccountRepository, NodeRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { CampaignChannels, type CampaignsPort } from '../responses/campaign-channels.js';
import { activeSurveysRoutes } from './active-surveys.routes.js';
import { channelsAdminRoutes } from './channels-admin.routes.js';
import { displayDateFormatter } from './display-date.js';
import { personalLinksRoutes } from './personal-links.routes.js';
import { responsesAdminRoutes } from './responses-admin.routes.js';
import { surveyPageRoutes } from './survey-page.routes.js';
import type { ShortLinksPort, SmsOptOutsPort, SurveysPort } from './surveys.port.js';
import { ActiveSurveyListSchema, ChannelSchema, PersonalLinkSchema } from './surveys.schemas.js';

export interface SurveysFeatureDeps {
  surveys: SurveysPort;
  shortener: ShortLinksPort;
  /** The page's "do not text me again" (links that came by SMS); the admin list's campaign filter. */
  sms: SmsOptOutsPort & CampaignsPort;
  accounts: AccountRepository;
  nodes: Pick<NodeRepository, 'findById'>;
  /** IANA zone of LastActivationDate (DISPLAY_TIME_ZONE). */
  displayTimeZone: string;
  publicBaseUrl?: string;
}

/** Active surveys, personal links (docs/api.md), the survey page, and channels and responses (admin). */
export function surveysFeature(deps: SurveysFeatureDeps): ApiFeature {
  const formatDate = displayDateFormatter(deps.displayTimeZone);
  const campaigns = new CampaignChannels(deps.sms);
  return {
    schemas: [ChannelSchema, ActiveSurveyListSchema, PersonalLinkSchema],
    routes: (ctx) => async (app) => {
      await app.register(activeSurveysRoutes({ ...deps, ...ctx, formatDate }));
      await app.register(personalLinksRoutes({ ...deps, ...ctx }));
      await app.register(surveyPageRoutes(deps));
    },
    async adminRoutes(app) {
      await app.register(channelsAdminRoutes(deps));
      await app.register(responsesAdminRoutes({ ...deps, campaigns }));
    },
  };
}
