import { describe, expect, it } from 'vitest';
import { MAX_SEND_BYTES, sendChunks } from '../src/producer.js';

const message = (value: string, key: string | null = 'k') => ({ key, value, headers: { 'event-id': 'e'.repeat(36) } });

describe('sendChunks', () => {
  it('keeps a small send whole', () => {
    const messages = [message('a'), message('b')];
    expect(sendChunks(messages)).toEqual([messages]);
  });

  it('splits a large send in order into runs under the limit', () => {
    const messages = Array.from({ length: 2_000 }, (_, i) => message(`${i}`.padEnd(1_000, '.')));
    const chunks = sendChunks(messages);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.flat()).toEqual(messages);
    for (const chunk of chunks) {
      const bytes = chunk.reduce((n, m) => n + m.value.length + m.key!.length + m.headers['event-id'].length, 0);
      expect(bytes).toBeLessThanOrEqual(MAX_SEND_BYTES);
    }
  });

  it('sends a message larger than the limit alone rather than dropping it', () => {
    const big = message('x'.repeat(100));
    const chunks = sendChunks([message('a'), big, message('b')], 80);
    expect(chunks).toEqual([[message('a')], [big], [message('b')]]);
  });
});
