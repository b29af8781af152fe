import type { FlowServiceServer, GetFlowResponse } from '@feedback/proto/feedback/flow/v1/flow';
import type { Flow } from '../domain/flow.js';
import { createFlow, getFlow } from '../domain/flow.use-cases.js';
import type { FlowDeps } from '../domain/ports.js';
import { unary } from '@feedback/kit-grpc';
import { flowDefinitionOf, flowMessage } from './flow.messages.js';

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. */
export function flowHandlers(deps: FlowDeps): FlowServiceServer {
  // Flows never change, and the cache hands out the same Flow object for a flow: its answer is
  // built once, and main.ts's memoizeSerialization encodes it once (docs/performance.md).
  const answers = new WeakMap<Flow, GetFlowResponse>();
  const answerOf = (flow: Flow) => {
    let answer = answers.get(flow);
    if (!answer) {
      answer = { flow: flowMessage(flow) };
      answers.set(flow, answer);
    }
    return answer;
  };
  return {
    createFlow: unary(async (req) => ({
      flow: flowMessage(await createFlow(deps, req.accountId, flowDefinitionOf(req))),
    })),
    getFlow: unary(async (req) => answerOf(await getFlow(deps, req.accountId, req.flowId))),
  };
}
