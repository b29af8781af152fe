import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import type { Flow } from '../src/domain/flow.js';
import type { FlowRepository } from '../src/domain/ports.js';
import { createFlow, getFlow } from '../src/domain/flow.use-cases.js';

class MemoryFlows implements FlowRepository {
  readonly items: Flow[] = [];
  async insert(flow: Flow) {
    this.items.push(flow);
  }
  async findById(accountId: string, flowId: string) {
    return this.items.find((f) => f.accountId === accountId && f.id === flowId) ?? null;
  }
}

let n = 0;
const deps = () => ({
  flows: new MemoryFlows(),
  newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  clock: { now: () => new Date('2026-11-22T09:30:00.123Z') },
});

describe('flow use cases', () => {
  it('gives the flow, its questions and options their own ids', async () => {
    const d = deps();
    const flow = await createFlow(d, 'acc-1', {
      name: ' Visit ',
      questions: [
        {
          key: 'c',
          body: { en: 'Pick' },
          style: 'dropdown',
          options: [
            { key: 'a', body: { en: 'A' } },
            { key: 'b', body: { en: 'B' } },
          ],
        },
      ],
    });
    const ids = [flow.id, flow.questions[0]!.id, ...flow.questions[0]!.options.map((o) => o.id)];
    expect(new Set(ids).size).toBe(4);
    expect(flow.name).toBe('Visit');
    expect(d.flows.items).toHaveLength(1);
  });

  it('does not store an invalid flow', async () => {
    const d = deps();
    await expect(createFlow(d, 'acc-1', { name: 'x', questions: [] })).rejects.toBeInstanceOf(AppError);
    expect(d.flows.items).toHaveLength(0);
  });

  it("answers not found for another account's flow, naming flow_id", async () => {
    const d = deps();
    const flow = await createFlow(d, 'acc-1', { name: 'x', questions: [{ key: 'k', body: { en: 'Q' }, style: 'nps', options: [] }] });
    await expect(getFlow(d, 'acc-1', flow.id)).resolves.toMatchObject({ id: flow.id });
    const err = await getFlow(d, 'acc-2', flow.id).catch((e: AppError) => e);
    expect(err).toMatchObject({ kind: 'not_found', fields: { flow_id: flow.id } });
    await expect(getFlow(d, 'acc-1', 'not-a-uuid')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
