import { afterEach, describe, expect, it } from 'vitest';
import { PoisonMessageError, type ConsumedMessage, type MessageHandler, type RunConsumerOptions } from '../src/index.js';
import { closeAll, freshTopic, startConsumer, startProducer, uniq, waitFor } from './stack.js';

afterEach(closeAll);

/** Runs `handler` on a fresh topic with 'bad' then 'good' on one partition; returns what was handled and dead-lettered. */
async function poisonThenGood(handler: MessageHandler, opts: Pick<RunConsumerOptions, 'maxAttempts' | 'isRetriable'>) {
  const topic = await freshTopic();
  const handled: string[] = [];
  const dead: ConsumedMessage[] = [];
  await Promise.all([
    startConsumer({
      groupId: uniq('g'),
      topics: [topic],
      ...opts,
      handler: async (msg) => {
        await handler(msg);
        handled.push(msg.value.toString());
      },
    }),
    startConsumer({ groupId: uniq('g-dlq'), topics: [`${topic}.dlq`], handler: async (msg) => void dead.push(msg) }),
  ]);
  const producer = await startProducer();
  await producer.publish(topic, [
    { key: 'same-key', value: 'bad', eventId: 'e-bad' },
    { key: 'same-key', value: 'good', eventId: 'e-good' },
  ]);
  await waitFor('the good message and one dead letter', () => handled.includes('good') && dead.length === 1);
  return { topic, handled, dead };
}

describe('dead-letter topic', () => {
  it('sends a PoisonMessageError straight to <topic>.dlq and moves on', async () => {
    let badCalls = 0;
    const { topic, handled, dead } = await poisonThenGood(
      async (msg) => {
        if (msg.value.toString() === 'bad') {
          badCalls++;
          throw new PoisonMessageError('cannot decode payload');
        }
      },
      { isRetriable: () => true },
    ); // a PoisonMessageError is never retried, whatever isRetriable says
    expect(badCalls).toBe(1);
    expect(handled).toEqual(['good']);
    const [letter] = dead;
    expect(letter!.value.toString()).toBe('bad');
    expect(letter!.key).toBe('same-key');
    expect(letter!.eventId).toBe('e-bad');
    expect(letter!.headers).toMatchObject({
      'x-original-topic': topic,
      'x-original-partition': '0',
      'x-original-offset': '0',
      'x-attempts': '1',
    });
    expect(letter!.headers['x-error-message']).toContain('cannot decode payload');
  });

  it('dead-letters a message whose handler always fails once maxAttempts is used up', async () => {
    let badCalls = 0;
    const { topic, handled, dead } = await poisonThenGood(
      async (msg) => {
        if (msg.value.toString() === 'bad') {
          badCalls++;
          throw new Error('downstream keeps failing');
        }
      },
      { maxAttempts: 2 },
    );
    expect(badCalls).toBe(2);
    expect(handled).toEqual(['good']);
    expect(dead[0]!.headers).toMatchObject({ 'x-original-topic': topic, 'x-original-offset': '0', 'x-attempts': '2' });
    expect(dead[0]!.headers['x-error-message']).toContain('downstream keeps failing');
  });
});
