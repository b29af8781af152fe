import type { Flow } from '@feedback/proto/feedback/flow/v1/flow';

/** docs/flows.md: exactly id, name, questions (no account or timestamps). */
export function flowView(flow: Flow | undefined) {
  if (!flow) throw new Error('flow service answered without a flow');
  return {
    id: flow.id,
    name: flow.name,
    questions: flow.questions.map((q) => ({
      id: q.id,
      key: q.key,
      body: q.body,
      style: q.style,
      options: q.options.map((o) => ({ id: o.id, key: o.key, body: o.body })),
    })),
  };
}
