import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, committedOffset, freshTopic, startConsumer, startProducer, uniq, waitFor } from './stack.js';

afterEach(closeAll);

describe('a handler slower than the session', () => {
  it(
    'keeps its partition: the message is handled once and committed, not redelivered after a lost session',
    { timeout: 90_000 },
    async () => {
      const topic = await freshTopic();
      const groupId = uniq('g');
      const producer = await startProducer();
      const [eventId] = await producer.publish(topic, [{ value: 'slow' }]);

      const calls: string[] = [];
      let done = 0;
      // Three sessions long: without heartbeats during the batch the coordinator drops the member
      // after 6 s, and the commit that follows fails and the message comes again.
      await startConsumer({
        groupId,
        topics: [topic],
        sessionTimeout: 6_000,
        heartbeatInterval: 600,
        handler: async (m) => {
          calls.push(m.eventId);
          await new Promise((r) => setTimeout(r, 18_000));
          done++;
        },
      });
      await waitFor('the slow handler to finish', () => done === 1, 60_000);
      await waitFor('the commit', async () => (await committedOffset(groupId, topic)) === '1', 10_000);
      await new Promise((r) => setTimeout(r, 3_000)); // a redelivery would come right after a rejoin
      expect(calls).toEqual([eventId]);
    },
  );
});
