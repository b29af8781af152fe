import { describe, expect, it } from 'vitest';
import { metricsRegistry, outboxBacklogMetrics, type OutboxBacklog } from '../src/index.js';

async function series(name: string, outbox: string): Promise<number | undefined> {
  const metric = await metricsRegistry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => v.labels.outbox === outbox)?.value;
}

describe('outbox backlog metrics', () => {
  it('reads the backlog at scrape time, at most once per interval whatever scrapes', async () => {
    let now = Date.parse('2026-11-25T10:00:00Z');
    let backlog: OutboxBacklog = { pending: 3, oldest: new Date(now - 90_000) };
    let reads = 0;
    outboxBacklogMetrics('unit.events', async () => (reads++, backlog), { minIntervalMs: 10_000, now: () => now });

    expect(await series('outbox_pending', 'unit.events')).toBe(3);
    expect(await series('outbox_oldest_age_seconds', 'unit.events')).toBe(90);
    await metricsRegistry.metrics();
    expect(reads).toBe(1);

    // Within the interval the same read answers; the age still moves with the clock.
    backlog = { pending: 0, oldest: null };
    now += 5_000;
    expect(await series('outbox_pending', 'unit.events')).toBe(3);
    expect(await series('outbox_oldest_age_seconds', 'unit.events')).toBe(95);
    expect(reads).toBe(1);

    now += 5_000;
    expect(await series('outbox_pending', 'unit.events')).toBe(0);
    expect(await series('outbox_oldest_age_seconds', 'unit.events')).toBe(0);
    expect(reads).toBe(2);
  });

  it('leaves the series out while the store fails, and counts the failure', async () => {
    let now = 0;
    let fail = true;
    outboxBacklogMetrics(
      'unit.failing',
      async () => {
        if (fail) throw new Error('store away');
        return { pending: 7, oldest: new Date(now - 1_000) };
      },
      { minIntervalMs: 1_000, now: () => now },
    );
    const errorsBefore =
      (await metricsRegistry.getSingleMetric('outbox_backlog_read_errors_total')!.get()).values.find(
        (v) => v.labels.outbox === 'unit.failing',
      )?.value ?? 0;

    expect(await series('outbox_pending', 'unit.failing')).toBeUndefined();
    const text = await metricsRegistry.metrics();
    expect(text).not.toMatch(/^outbox_pending\{[^}]*outbox="unit\.failing"/m);
    expect(text).toMatch(new RegExp(`^outbox_backlog_read_errors_total\\{outbox="unit\\.failing"\\} ${errorsBefore + 1}$`, 'm'));

    fail = false;
    now += 1_000;
    expect(await series('outbox_pending', 'unit.failing')).toBe(7);
    expect(await series('outbox_oldest_age_seconds', 'unit.failing')).toBe(1);
  });
});
