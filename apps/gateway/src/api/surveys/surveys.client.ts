import { localAddr } from '@feedback/kit-core/runtime';
import { SurveyServiceClient } from '@feedback/proto/feedback/survey/v1/survey';
import { unaryPeer } from '../../grpc-peers.js';

/** The survey service; its kit-grpc client is the SurveysPort. */
export const surveyPeer = unaryPeer(SurveyServiceClient, localAddr('SURVEY_GRPC_PORT'));
