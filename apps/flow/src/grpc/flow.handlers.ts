import type { Flow as FlowMessage, FlowServiceServer, GetFlowResponse } from '@feedback/proto/feedback/flow/v1/flow';
import type { Flow } from '../domain/flow.js';
import { createFlow, getFlow } from '../domain/flow.use-cases.js';
import type { FlowDeps } from '../domain/ports.js';
import { unary } from '@feedback/kit-grpc';

function toMessage(flow: Flow): FlowMessage {
  return {
    id: flow.id,
    accountId: flow.accountId,
    name: flow.name,
    createdAt: flow.createdAt.toISOString(),
    // The domain's questions are the message's shape; the HTTP view picks its fields once (gateway flows.views.ts).
    questions: flow.questions,
  };
}

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. */
export function flowHandlers(deps: FlowDeps): FlowServiceServer {
  // Flows never change, and the cache hands out the same Flow object for a flow: its answer is
  // built once, and main.ts's memoizeSerialization encodes it once (docs/performance.md).
  const answers = new WeakMap<Flow, GetFlowResponse>();
  const answerOf = (flow: Flow) => {
    let answer = answers.get(flow);
    if (!answer) {
      answer = { flow: toMessage(flow) };
      answers.set(flow, answer);
    }
    return answer;
  };
  return {
    createFlow: unary(async (req) => ({
      flow: toMessage(await createFlow(deps, req.accountId, { name: req.name, questions: req.questions })),
    })),
    getFlow: unary(async (req) => answerOf(await getFlow(deps, req.accountId, req.flowId))),
  };
}
