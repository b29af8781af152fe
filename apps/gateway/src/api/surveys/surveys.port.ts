import type { AddSmsOptOutsRequest, AddSmsOptOutsResponse } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { ShortenRequest, ShortenResponse } from '@feedback/proto/feedback/shortener/v1/shortener';
import type {
  ActivateSurveyLinkRequest,
  ActivateSurveyLinkResponse,
  CreateChannelRequest,
  CreateChannelResponse,
  GetSurveyPageRequest,
  GetSurveyPageResponse,
  ListActiveSurveysRequest,
  ListActiveSurveysResponse,
  ListChannelsRequest,
  ListChannelsResponse,
  ListResponsesRequest,
  ListResponsesResponse,
  SubmitAnswersRequest,
  SubmitAnswersResponse,
} from '@feedback/proto/feedback/survey/v1/survey';

/** What the survey routes need from the survey service. */
export interface SurveysPort {
  listActiveSurveys(req: ListActiveSurveysRequest): Promise<ListActiveSurveysResponse>;
  activateSurveyLink(req: ActivateSurveyLinkRequest): Promise<ActivateSurveyLinkResponse>;
  createChannel(req: CreateChannelRequest): Promise<CreateChannelResponse>;
  listChannels(req: ListChannelsRequest): Promise<ListChannelsResponse>;
  getSurveyPage(req: GetSurveyPageRequest): Promise<GetSurveyPageResponse>;
  submitAnswers(req: SubmitAnswersRequest): Promise<SubmitAnswersResponse>;
  listResponses(req: ListResponsesRequest): Promise<ListResponsesResponse>;
}

/** A personal link's optional short form comes from the shortener (the account's default domain). */
export interface ShortLinksPort {
  shorten(req: ShortenRequest): Promise<ShortenResponse>;
}

/** The survey page's "do not text me again" puts the phone on the account's list in the messaging service. */
export interface SmsOptOutsPort {
  addSmsOptOuts(req: AddSmsOptOutsRequest): Promise<AddSmsOptOutsResponse>;
}
