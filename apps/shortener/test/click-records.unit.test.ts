import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { describe, expect, it } from 'vitest';
import { decodeClickRecords } from '../src/adapters/kafka/click.consumer.js';

const T0 = Date.UTC(2026, 10, 20, 10, 0);
const message = (offset: number, event: Partial<LinkClicked>) => ({
  offset: String(offset),
  value: Buffer.from(LinkClicked.encode(LinkClicked.fromPartial(event)).finish()),
});

describe('decodeClickRecords (link.clicked → the records countClicks and countClickHours take)', () => {
  it('keeps excluded redirects both as times (older gateways) and as counts per second', () => {
    const { records, poison } = decodeClickRecords([
      message(4, { code: 'Code123', excludedAtMs: [T0 + 1, T0 + 2] }),
      message(5, { code: 'Code123', excludedSeconds: [{ secondMs: T0, count: 35_000 }] }),
      message(6, { code: 'Code123', clickedAtMs: [T0 + 3], excludedSeconds: [{ secondMs: T0 + 1000, count: 2 }] }),
    ]);
    expect(poison).toEqual([]);
    expect(records).toEqual([
      expect.objectContaining({ code: 'Code123', offset: 4, clicks: 0, excludedAtMs: [T0 + 1, T0 + 2], excludedSeconds: [] }),
      expect.objectContaining({
        code: 'Code123',
        offset: 5,
        clicks: 0,
        excludedAtMs: [],
        excludedSeconds: [{ secondMs: T0, count: 35_000 }],
      }),
      expect.objectContaining({ offset: 6, clicks: 1, clickedAtMs: [T0 + 3], excludedSeconds: [{ secondMs: T0 + 1000, count: 2 }] }),
    ]);
  });

  it('takes a record of nothing, or of no short code, as poison', () => {
    const empty = message(1, { code: 'Code123' });
    const noCode = message(2, { code: '../x', excludedSeconds: [{ secondMs: T0, count: 1 }] });
    expect(decodeClickRecords([empty, noCode])).toEqual({ records: [], poison: [empty, noCode] });
  });
});
