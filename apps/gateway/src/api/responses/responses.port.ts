import type { GetFlowRequest, GetFlowResponse } from '@feedback/proto/feedback/flow/v1/flow';
import type {
  DescribeChannelRequest,
  DescribeChannelResponse,
  GetNpsSummaryRequest,
  GetNpsSummaryResponse,
  GetResponseRequest,
  GetResponseResponse,
  ListResponsesRequest,
  ListResponsesResponse,
} from '@feedback/proto/feedback/survey/v1/survey';

/** What the responses API needs from the survey service, which owns the responses and checks the account. */
export interface ResponsesPort {
  listResponses(req: ListResponsesRequest): Promise<ListResponsesResponse>;
  getResponse(req: GetResponseRequest): Promise<GetResponseResponse>;
  getNpsSummary(req: GetNpsSummaryRequest): Promise<GetNpsSummaryResponse>;
  describeChannel(req: DescribeChannelRequest): Promise<DescribeChannelResponse>;
}

/** The CSV export's columns are the questions of the flow (the flow service checks the account). */
export interface FlowQuestionsPort {
  getFlow(req: GetFlowRequest): Promise<GetFlowResponse>;
}
