import { createLogger } from '@feedback/kit-core/runtime';
import type { OutgoingMessage, Producer } from '@feedback/kit-kafka';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { describe, expect, it } from 'vitest';
import { ClickPublisher } from '../src/links/click.publisher.js';

const logger = createLogger('gateway-test', 'silent');
const T0 = Date.UTC(2026, 10, 20, 10, 0);

function recordingProducer() {
  const batches: OutgoingMessage[][] = [];
  const producer: Producer = {
    connect: async () => {},
    disconnect: async () => {},
    publish: async (_topic, messages) => {
      batches.push(messages);
      return messages.map((_, i) => String(i));
    },
  };
  const events = () => batches.flat().map((m) => LinkClicked.decode(m.value as Buffer));
  return { producer, events };
}

describe('ClickPublisher: excluded redirects', () => {
  it('sends them as counts per second, not a time each', async () => {
    const { producer, events } = recordingProducer();
    const clicks = new ClickPublisher(producer, { topic: 'clicks', batchSize: 100, flushIntervalMs: 60_000, maxBuffered: 100, logger });
    for (let i = 0; i < 3000; i++) clicks.exclude('hot', T0 + (i % 1000));
    clicks.exclude('hot', T0 + 1500);
    clicks.record('hot', T0 + 1600);
    clicks.exclude('other', T0 + 999);
    clicks.start();
    await clicks.close();
    expect(events()).toEqual([
      expect.objectContaining({
        code: 'hot',
        clickedAtMs: [T0 + 1600],
        excludedAtMs: [],
        excludedSeconds: [
          { secondMs: T0, count: 3000 },
          { secondMs: T0 + 1000, count: 1 },
        ],
      }),
      expect.objectContaining({ code: 'other', clickedAtMs: [], excludedSeconds: [{ secondMs: T0, count: 1 }] }),
    ]);
  });

  it('takes a place in the buffer (and toward a batch) per second, not per redirect', async () => {
    const { producer, events } = recordingProducer();
    const clicks = new ClickPublisher(producer, { topic: 'clicks', batchSize: 2, flushIntervalMs: 60_000, maxBuffered: 2, logger });
    for (let i = 0; i < 5000; i++) clicks.exclude('hot', T0 + (i % 1000));
    expect(clicks.waiting).toBe(1);
    clicks.exclude('hot', T0 + 1000);
    clicks.exclude('hot', T0 + 2000); // the buffer is full (nothing connected yet): dropped
    clicks.exclude('hot', T0 + 1001); // its second has a place: counted
    expect(clicks.waiting).toBe(2);
    clicks.start();
    await clicks.close();
    expect(events().flatMap((e) => e.excludedSeconds)).toEqual([
      { secondMs: T0, count: 5000 },
      { secondMs: T0 + 1000, count: 2 },
    ]);
  });
});

describe('ClickPublisher: sending', () => {
  it('sends once per flush what gathered until then; what comes meanwhile waits for the next flush', async () => {
    const sends: string[][] = [];
    let arrive: () => void = () => {};
    const producer: Producer = {
      connect: async () => {},
      disconnect: async () => {},
      publish: async (_topic, messages) => {
        sends.push(messages.map((m) => LinkClicked.decode(m.value as Buffer).code));
        await new Promise<void>((resolve) => (arrive = resolve));
        return messages.map((_, i) => String(i));
      },
    };
    const clicks = new ClickPublisher(producer, { topic: 'clicks', batchSize: 100, flushIntervalMs: 60_000, maxBuffered: 100, logger });
    clicks.start();
    await clicks.flush(); // connects
    clicks.exclude('first');
    const sending = clicks.flush();
    clicks.exclude('during');
    arrive();
    await sending;
    expect(sends).toEqual([['first']]);
    expect(clicks.waiting).toBe(1);
    const closing = clicks.close();
    await new Promise((r) => setTimeout(r, 10));
    arrive();
    await closing;
    expect(sends).toEqual([['first'], ['during']]);
  });

  it('tries a failed send once more at close, not again and again', async () => {
    let sends = 0;
    const producer: Producer = {
      connect: async () => {},
      disconnect: async () => {},
      publish: async () => {
        sends++;
        throw new Error('broker away');
      },
    };
    const clicks = new ClickPublisher(producer, { topic: 'clicks', batchSize: 100, flushIntervalMs: 60_000, maxBuffered: 100, logger });
    clicks.start();
    await clicks.flush(); // connects
    clicks.exclude('a');
    await clicks.close();
    expect(sends).toBe(1);
    expect(clicks.waiting).toBe(1);
  });
});
