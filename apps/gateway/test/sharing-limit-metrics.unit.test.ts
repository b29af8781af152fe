import { createServer } from 'node:net';
import { createLogger } from '@feedback/kit-core/runtime';
import { staticLimits, TierLimiter, type Admission } from '@feedback/kit-limits';
import { metricsRegistry } from '@feedback/kit-metrics';
import { createRedis } from '@feedback/kit-stores';
import { describe, expect, it } from 'vitest';
import { meteredLimiter } from '../src/api/sms/sharing-limit.metrics.js';

const logger = createLogger('gateway-test', 'silent');

async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric(name)?.get();
  const found = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return found?.value ?? 0;
}

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('the SMS sharing limiter metrics', () => {
  it('count refusals by tier and decisions by source, and say while the in-process fallback decides', async () => {
    // A Redis that is not there: the real TierLimiter falls back to its in-process limiter.
    const redis = createRedis({ url: `redis://127.0.0.1:${await closedPort()}`, logger, name: 'limit-metrics-test' });
    try {
      const tiers = [
        { name: 'burst', limit: 2, windowSeconds: 60 },
        { name: 'hour', limit: 100, windowSeconds: 3600 },
      ];
      const limiter = new TierLimiter({ redis, limits: staticLimits({ enabled: true, tiers }), logger, prefix: `t-${Date.now()}` });
      const metered = meteredLimiter(limiter, 'unit_limiter');
      const results: Admission[] = [];
      for (let i = 0; i < 3; i++) results.push(await metered.admit('acc'));
      expect(results.map((r) => r.admitted)).toEqual([true, true, false]);

      expect(await value('rate_limit_decisions_total', { limiter: 'unit_limiter', result: 'admitted', source: 'memory' })).toBe(2);
      expect(await value('rate_limit_decisions_total', { limiter: 'unit_limiter', result: 'refused', source: 'memory' })).toBe(1);
      expect(await value('rate_limit_refused_total', { limiter: 'unit_limiter', tier: 'burst' })).toBe(1);
      expect(await value('rate_limit_refused_total', { limiter: 'unit_limiter', tier: 'hour' })).toBe(0);
      expect(await value('rate_limit_fallback_active', { limiter: 'unit_limiter' })).toBe(1);
      expect(await metricsRegistry.metrics()).toMatch(/^rate_limit_fallback_active\{limiter="unit_limiter"\} 1$/m);
    } finally {
      redis.disconnect();
    }
  });

  it('reads the fallback gauge at scrape time, 0 while Redis decides', async () => {
    let degraded = false;
    const admit = async (): Promise<Admission> => ({ admitted: true, tiers: [], bindingTier: -1, source: 'redis' });
    meteredLimiter(
      {
        admit,
        get degraded() {
          return degraded;
        },
      },
      'unit_switching',
    );
    expect(await value('rate_limit_fallback_active', { limiter: 'unit_switching' })).toBe(0);
    degraded = true;
    expect(await value('rate_limit_fallback_active', { limiter: 'unit_switching' })).toBe(1);
  });
});
