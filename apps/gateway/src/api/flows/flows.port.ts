import type { CreateFlowRequest, CreateFlowResponse, GetFlowRequest, GetFlowResponse } from '@feedback/proto/feedback/flow/v1/flow';

/** What the flow routes need from the flow service. */
export interface FlowsPort {
  getFlow(req: GetFlowRequest): Promise<GetFlowResponse>;
  createFlow(req: CreateFlowRequest): Promise<CreateFlowResponse>;
}
