import { errors, type QuestionStyle } from '@feedback/kit-core';
import type { Flow, FlowDefinition } from './flow.js';
import type { FlowDeps } from './ports.js';
import { validateFlowDefinition } from './validate-flow.js';

export async function createFlow(deps: FlowDeps, accountId: string, def: FlowDefinition): Promise<Flow> {
  validateFlowDefinition(def);
  const flow: Flow = {
    id: deps.newId(),
    accountId,
    name: def.name.trim(),
    createdAt: deps.clock.now(),
    questions: def.questions.map((q) => ({
      id: deps.newId(),
      key: q.key,
      body: q.body,
      style: q.style as QuestionStyle,
      options: (q.options ?? []).map((o) => ({ id: deps.newId(), key: o.key, body: o.body })),
    })),
  };
  await deps.flows.insert(flow);
  return flow;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Unknown, malformed and other accounts' flow ids all answer the same not-found. */
export async function getFlow(deps: Pick<FlowDeps, 'flows'>, accountId: string, flowId: string): Promise<Flow> {
  const flow = UUID.test(flowId) ? await deps.flows.findById(accountId, flowId.toLowerCase()) : null;
  if (!flow) throw errors.notFound('flow_id', flowId);
  return flow;
}
