import type { CreateFlowRequest, Flow as FlowMessage } from '@feedback/proto/feedback/flow/v1/flow';
import type { Flow, FlowDefinition } from '../domain/flow.js';

/** proto <-> domain for the flow service: the handlers call use cases and these only. */
export function flowMessage(flow: Flow): FlowMessage {
  return {
    id: flow.id,
    accountId: flow.accountId,
    name: flow.name,
    createdAt: flow.createdAt.toISOString(),
    // The domain's questions are the message's shape; the HTTP view picks its fields once (gateway flows.views.ts).
    questions: flow.questions,
  };
}

export const flowDefinitionOf = (req: CreateFlowRequest): FlowDefinition => ({ name: req.name, questions: req.questions });
