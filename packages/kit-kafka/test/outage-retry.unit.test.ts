import { AppError } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { describe, expect, it } from 'vitest';
import { processMessage, type ConsumedMessage, type ProcessorDeps } from '../src/message-processor.js';
import type { Producer } from '../src/producer.js';

const msg: ConsumedMessage = { topic: 't', partition: 0, offset: '1', key: 'k', value: Buffer.from('v'), headers: {}, eventId: 'e1' };

/** processMessage with a handler failing `failures` times with `error`, then succeeding; no Kafka (a fake dead-letter producer). */
async function run(error: () => unknown, failures: number, opts: Partial<ProcessorDeps> = {}) {
  let calls = 0;
  const deadLettered: string[] = [];
  const outcome = await processMessage(msg, {
    group: 'g',
    handler: async () => {
      calls++;
      if (calls <= failures) throw error();
    },
    deadLetters: { publish: async (topic: string) => void deadLettered.push(topic) } as unknown as Producer,
    deadLetterTopic: (t) => `${t}.dlq`,
    maxAttempts: 3,
    retryBackoffMs: 1,
    isRetriable: () => true,
    logger: createLogger('test', 'silent'),
    live: () => true,
    heartbeat: async () => {},
    signal: new AbortController().signal,
    ...opts,
  });
  return { outcome, calls, deadLettered };
}

const mongoDown = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { name: 'MongoServerSelectionError' });

describe('processMessage through an outage', () => {
  it('waits out a database that is down instead of dead-lettering after maxAttempts', async () => {
    const r = await run(mongoDown, 8);
    expect(r).toEqual({ outcome: 'handled', calls: 9, deadLettered: [] });
  });

  it('waits out a peer service answering unavailable (503) the same way', async () => {
    const r = await run(() => new AppError('unavailable'), 8);
    expect(r).toEqual({ outcome: 'handled', calls: 9, deadLettered: [] });
  });

  it("still dead-letters the message's own failures after maxAttempts", async () => {
    const r = await run(() => new Error('template broken'), 8);
    expect(r).toEqual({ outcome: 'dead-lettered', calls: 3, deadLettered: ['t.dlq'] });
  });

  it('dead-letters once an outage has lasted longer than outageWaitMs', async () => {
    const r = await run(mongoDown, 1_000, { outageWaitMs: 0 });
    expect(r.outcome).toBe('dead-lettered');
    expect(r.calls).toBe(3);
  });
});
