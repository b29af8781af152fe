import { createServer } from 'node:net';
import { createRedis } from '@feedback/kit-stores';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  LiveLimits,
  staticLimits,
  TierLimiter,
  type LimitsChanges,
  type LimitsConfig,
  type LimitsScope,
  type LimitsSnapshot,
  type LimitsStore,
} from '../src/index.js';
import { logger } from './stack.js';

const tiers = (...t: [number, number][]): LimitsConfig => ({
  enabled: true,
  tiers: t.map(([limit, windowSeconds], i) => ({ name: `t${i}`, limit, windowSeconds })),
});
const FILE = tiers([7, 70]);

/** The store as a map; `load` hands out a copy, as a database read would. */
function memoryStore(): LimitsStore & { puts: number } {
  const docs = new Map<string, { config: LimitsConfig; updatedAt: Date }>();
  const id = (s: LimitsScope) => (s.kind === 'deployment' ? '' : s.accountId);
  return {
    puts: 0,
    async load(): Promise<LimitsSnapshot> {
      const accounts = new Map([...docs].filter(([k]) => k !== ''));
      return { deployment: docs.get('') ?? null, accounts };
    },
    async put(scope, config, now) {
      this.puts++;
      docs.set(id(scope), { config, updatedAt: now });
    },
    async remove(scope) {
      return docs.delete(id(scope));
    },
  };
}

/** Every LiveLimits on one fake bus hears every publish, as replicas on one Redis channel do. */
function fakeBus() {
  const listeners: (() => void)[] = [];
  const changes = (): LimitsChanges & { published: number } => ({
    published: 0,
    async publish() {
      this.published++;
      for (const l of listeners) l();
    },
    subscribe: (onChange) => void listeners.push(onChange),
    close: async () => undefined,
  });
  return { changes };
}

const live = (store: LimitsStore, changes: LimitsChanges, base: 'file' | 'default' = 'file') =>
  new LiveLimits({
    store,
    changes,
    base: staticLimits(base === 'file' ? FILE : DEFAULT_LIMITS),
    baseOrigin: base,
    logger,
    now: () => new Date('2026-01-02T03:04:05Z'),
  });

describe('LiveLimits precedence', () => {
  it('defaults, or the file, until limits are stored; stored ones win until reset', async () => {
    const bus = fakeBus();
    expect(live(memoryStore(), bus.changes(), 'default').deployment()).toEqual({
      config: DEFAULT_LIMITS,
      origin: 'default',
      updatedAt: null,
    });

    const limits = live(memoryStore(), bus.changes());
    await limits.refresh();
    expect(limits.deployment()).toEqual({ config: FILE, origin: 'file', updatedAt: null });
    expect(limits.current()).toEqual(FILE);

    const stored = tiers([3, 30]);
    expect(await limits.set({ kind: 'deployment' }, stored)).toEqual({
      config: stored,
      origin: 'stored',
      updatedAt: new Date('2026-01-02T03:04:05Z'),
    });
    expect(limits.current()).toEqual(stored);
    expect(limits.forKey('anyone')).toEqual(stored);

    const { removed, inForce } = await limits.reset({ kind: 'deployment' });
    expect(removed).toBe(true);
    expect(inForce.origin).toBe('file');
    expect(limits.current()).toEqual(FILE);
    expect((await limits.reset({ kind: 'deployment' })).removed).toBe(false);
  });

  it("an account's own limits apply to it alone, over stored and file limits; reset, it follows the deployment again", async () => {
    const limits = live(memoryStore(), fakeBus().changes());
    const own = tiers([2, 60]);
    expect((await limits.set({ kind: 'account', accountId: 'acc-a' }, own)).origin).toBe('account');
    await limits.set({ kind: 'deployment' }, tiers([9, 90]));

    expect(limits.forKey('acc-a')).toEqual(own);
    expect(limits.account('acc-a').origin).toBe('account');
    expect(limits.forKey('acc-b')).toEqual(tiers([9, 90]));
    expect(limits.account('acc-b').origin).toBe('stored');
    expect(limits.accountOverrides).toBe(1);

    const { inForce } = await limits.reset({ kind: 'account', accountId: 'acc-a' });
    expect(inForce).toMatchObject({ origin: 'stored', config: tiers([9, 90]) });
    expect(limits.forKey('acc-a')).toEqual(tiers([9, 90]));
  });

  it('a change made on one replica is applied by another that hears the notice', async () => {
    const store = memoryStore();
    const bus = fakeBus();
    const a = live(store, bus.changes());
    const b = live(store, bus.changes());
    const heard: Promise<void>[] = [];
    bus.changes().subscribe(() => heard.push(b.refresh()));
    await Promise.all([a.refresh(), b.refresh()]);

    await a.set({ kind: 'account', accountId: 'acc-a' }, tiers([1, 10]));
    await Promise.all(heard);
    expect(b.forKey('acc-a')).toEqual(tiers([1, 10]));
  });

  it('keeps what was in force when the store cannot be read', async () => {
    const store = memoryStore();
    const limits = live(store, fakeBus().changes());
    await limits.set({ kind: 'deployment' }, tiers([4, 40]));
    store.load = () => Promise.reject(new Error('database away'));
    await expect(limits.refresh()).rejects.toThrow('database away');
    expect(limits.deployment().origin).toBe('stored');
    expect(limits.current()).toEqual(tiers([4, 40]));
  });

  it('a failed publish still answers the stored change (the others catch up on their periodic re-read)', async () => {
    const changes: LimitsChanges = {
      publish: () => Promise.reject(new Error('redis away')),
      subscribe: () => undefined,
      close: async () => undefined,
    };
    const limits = live(memoryStore(), changes);
    expect((await limits.set({ kind: 'deployment' }, tiers([5, 50]))).origin).toBe('stored');
  });
});

describe('TierLimiter with per-account limits', () => {
  it("admits each account by its own tiers when it has them, by the deployment's otherwise", async () => {
    // No Redis there: the in-process fallback decides with the same algorithm.
    const srv = createServer();
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    const { port } = srv.address() as { port: number };
    await new Promise<void>((resolve) => srv.close(() => resolve()));
    const redis = createRedis({ url: `redis://127.0.0.1:${port}`, logger, name: 'live-limits-unit' });
    try {
      const limits = live(memoryStore(), fakeBus().changes());
      await limits.set({ kind: 'account', accountId: 'tight' }, tiers([2, 60]));
      const limiter = new TierLimiter({ redis, limits, logger, prefix: 'unit' });

      const tight = [];
      for (let i = 0; i < 3; i++) tight.push((await limiter.admit('tight')).admitted);
      expect(tight).toEqual([true, true, false]);
      const other = [];
      for (let i = 0; i < 3; i++) other.push((await limiter.admit('other')).admitted);
      expect(other).toEqual([true, true, true]);

      const usage = await limiter.usage('tight');
      expect(usage.source).toBe('memory');
      expect(usage.tiers).toMatchObject([{ name: 't0', limit: 2, windowSeconds: 60, used: 2 }]);
      expect(usage.tiers[0]!.endsAtMs).toBeGreaterThan(Date.now());
      expect((await limiter.usage('nobody')).tiers).toMatchObject([{ limit: 7, used: 0, endsAtMs: null }]);

      await limits.reset({ kind: 'account', accountId: 'tight' });
      const after = await limiter.admit('tight');
      expect(after.admitted).toBe(true);
      expect(after.tiers.map((t) => t.limit)).toEqual([7]);
    } finally {
      redis.disconnect();
    }
  });
});
