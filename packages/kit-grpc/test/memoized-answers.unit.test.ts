import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { memoizeSerialization } from '../src/memoized-answers.js';

describe('memoizeSerialization', () => {
  const encode = (calls: { n: number }): MethodDefinition<unknown, { v: string }> => ({
    path: '/t.S/Get',
    requestStream: false,
    responseStream: false,
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize: () => ({}),
    responseSerialize: (value) => (calls.n++, Buffer.from(value.v)),
    responseDeserialize: (b) => ({ v: b.toString() }),
  });

  it('encodes an answer object once, equal objects each on their own, and leaves other methods alone', () => {
    const get = { n: 0 };
    const other = { n: 0 };
    const definition = { get: encode(get), other: encode(other) } as unknown as ServiceDefinition;
    const memo = memoizeSerialization(definition, ['get']);
    const answer = { v: 'flow' };
    expect(memo.get!.responseSerialize(answer).toString()).toBe('flow');
    expect(memo.get!.responseSerialize(answer).toString()).toBe('flow');
    expect(get.n).toBe(1);
    memo.get!.responseSerialize({ v: 'flow' });
    expect(get.n).toBe(2);
    memo.other!.responseSerialize(answer);
    memo.other!.responseSerialize(answer);
    expect(other.n).toBe(2);
    expect(() => memoizeSerialization(definition, ['missing'])).toThrow(/no method missing/);
  });
});
