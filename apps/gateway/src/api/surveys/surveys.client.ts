import { SurveyServiceClient } from '@feedback/proto/feedback/survey/v1/survey';
import { unaryPeer } from '../../grpc-peers.js';

/** The survey service; its kit-grpc client is the SurveysPort. */
export const surveyPeer = unaryPeer(SurveyServiceClient, '127.0.0.1:50053');
