import { AppError, errors } from '@feedback/kit-core';
import type { GetFlowRequest, GetFlowResponse } from '@feedback/proto/feedback/flow/v1/flow';
import { describe, expect, it } from 'vitest';
import { FlowViewCache } from '../src/api/flows/flow-view.cache.js';

/** A flow service with one flow of account "a", counting its calls. */
function flowService() {
  const calls: GetFlowRequest[] = [];
  let fail = false;
  const getFlow = async (req: GetFlowRequest): Promise<GetFlowResponse> => {
    calls.push(req);
    await new Promise((r) => setTimeout(r, 5));
    if (fail) throw new Error('unavailable');
    if (req.accountId !== 'a' || req.flowId !== 'f1') throw errors.notFound('flow_id', req.flowId);
    return {
      flow: {
        id: 'f1',
        accountId: 'a',
        name: 'NPS <b>',
        questions: [{ id: 'q1', key: 'nps', body: 'How likely?', style: 'nps', options: [] }],
      } as unknown as GetFlowResponse['flow'],
    };
  };
  return { getFlow, calls, failNext: (on: boolean) => (fail = on) };
}

describe('FlowViewCache', () => {
  it('asks the flow service once per (account, flow) and answers the view as JSON bytes afterwards', async () => {
    const svc = flowService();
    const cache = new FlowViewCache(svc, { maxBytes: 1 << 20 });
    expect(cache.peek('a', 'f1')).toBeUndefined();
    const [one, two] = await Promise.all([cache.load('a', 'f1'), cache.load('a', 'f1')]);
    expect(svc.calls).toHaveLength(1);
    expect(one).toBe(two);
    expect(JSON.parse(one.json.toString('utf8'))).toEqual({
      id: 'f1',
      name: 'NPS <b>',
      questions: [{ id: 'q1', key: 'nps', body: 'How likely?', style: 'nps', options: [] }],
    });
    expect(cache.peek('a', 'f1')).toBe(one);
  });

  it("never answers another account's flow from the cache, and never caches a refusal", async () => {
    const svc = flowService();
    const cache = new FlowViewCache(svc, { maxBytes: 1 << 20 });
    await cache.load('a', 'f1');
    await expect(cache.load('b', 'f1')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(cache.load('b', 'f1')).rejects.toBeInstanceOf(AppError);
    expect(cache.peek('b', 'f1')).toBeUndefined();
    expect(svc.calls.filter((c) => c.accountId === 'b')).toHaveLength(2);
  });

  it('does not keep a failed load: the next request asks again', async () => {
    const svc = flowService();
    const cache = new FlowViewCache(svc, { maxBytes: 1 << 20 });
    svc.failNext(true);
    await expect(cache.load('a', 'f1')).rejects.toThrow('unavailable');
    svc.failNext(false);
    await expect(cache.load('a', 'f1')).resolves.toMatchObject({ id: 'f1' });
    expect(svc.calls).toHaveLength(2);
  });

  it('stays within its byte budget, dropping the least recently used', async () => {
    const svc = flowService();
    const one = (await new FlowViewCache(svc, { maxBytes: 1 << 20 }).load('a', 'f1')).json.length;
    const cache = new FlowViewCache(svc, { maxBytes: one + 100 });
    await cache.load('a', 'f1');
    expect(cache.peek('a', 'f1')).toMatchObject({ id: 'f1' });
    const tiny = new FlowViewCache(svc, { maxBytes: 10 });
    await expect(tiny.load('a', 'f1')).resolves.toMatchObject({ id: 'f1' });
    expect(tiny.peek('a', 'f1')).toBeUndefined();
  });
});
