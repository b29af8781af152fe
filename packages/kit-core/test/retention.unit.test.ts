import { describe, expect, it } from 'vitest';
import {
  drainPasses,
  effectiveRetention,
  retentionPasses,
  sweepRetention,
  type AccountRetention,
  type RetentionPass,
  type RetentionTarget,
} from '../src/retention.js';

const DAY = 86_400_000;
const now = new Date('2026-11-28T00:00:00.000Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY);
const setting = (accountId: string, days: AccountRetention['days']): AccountRetention => ({ accountId, days, version: 1 });

/** Documents of several accounts with ages in days; deleteBatch applies a pass as the Mongo target does. */
function fakeTarget(
  docs: { account: string; ageDays: number }[],
  name = 'docs',
): RetentionTarget & { left: typeof docs; calls: RetentionPass[] } {
  const t = {
    name,
    left: [...docs],
    calls: [] as RetentionPass[],
    async deleteBatch(pass: RetentionPass, limit: number) {
      t.calls.push(pass);
      const matches = t.left
        .filter((d) => daysAgo(d.ageDays) < pass.before)
        .filter((d) => (pass.accountId !== undefined ? d.account === pass.accountId : !pass.exceptAccounts?.includes(d.account)))
        .slice(0, limit);
      t.left = t.left.filter((d) => !matches.includes(d));
      return matches.length;
    },
  };
  return t;
}

const limits = (maxBatches = 100, batchSize = 10) => ({ batchSize, maxBatches, pause: async () => undefined });

describe('effective retention', () => {
  it("is the account's own value when it set the kind, else the deployment default, saying which", () => {
    const s = setting('a', { messages: 30 });
    expect(effectiveRetention(s, 'messages', 365)).toEqual({ days: 30, source: 'account' });
    expect(effectiveRetention(s, 'responses', 730)).toEqual({ days: 730, source: 'default' });
    expect(effectiveRetention(null, 'webhook_deliveries', 30)).toEqual({ days: 30, source: 'default' });
    expect(effectiveRetention(setting('a', { messages: 0 }), 'messages', 365)).toEqual({ days: 0, source: 'account' });
  });
});

describe('retention passes', () => {
  it('cut at the default for everyone but the accounts keeping longer, and at each account its own', () => {
    const passes = retentionPasses(
      [
        setting('short', { messages: 30 }),
        setting('long', { messages: 800 }),
        setting('ever', { messages: 0 }),
        setting('same', { messages: 365 }),
      ],
      'messages',
      365,
      now,
    );
    expect(passes).toEqual([
      { accountId: 'short', before: daysAgo(30) },
      { accountId: 'long', before: daysAgo(800) },
      { before: daysAgo(365), exceptAccounts: ['long', 'ever'] },
    ]);
  });

  it('a default of 0 keeps for ever: only the accounts with a value of their own are swept', () => {
    expect(retentionPasses([setting('a', { responses: 10 }), setting('b', { messages: 10 })], 'responses', 0, now)).toEqual([
      { accountId: 'a', before: daysAgo(10) },
    ]);
  });
});

describe('a sweep', () => {
  it("deletes what is older than each account's retention, in that account only", async () => {
    const target = fakeTarget([
      { account: 'a', ageDays: 40 },
      { account: 'a', ageDays: 20 },
      { account: 'b', ageDays: 40 },
      { account: 'b', ageDays: 400 },
      { account: 'c', ageDays: 400 },
    ]);
    const settings = { list: async () => [setting('a', { messages: 30 }), setting('c', { messages: 0 })], apply: async () => undefined };
    const deleted = await sweepRetention({
      settings,
      kinds: [{ kind: 'messages', defaultDays: 365, targets: [target] }],
      now,
      limits: limits(),
    });
    expect(deleted).toEqual({ docs: 2 });
    expect(target.left).toEqual([
      { account: 'a', ageDays: 20 },
      { account: 'b', ageDays: 40 },
      { account: 'c', ageDays: 400 },
    ]);
  });

  it("takes turns between accounts: one account's backlog does not hold another's batch", async () => {
    const big = fakeTarget([...Array.from({ length: 100 }, () => ({ account: 'big', ageDays: 50 })), { account: 'small', ageDays: 50 }]);
    const work = [
      { target: big, pass: { accountId: 'big', before: daysAgo(10) } },
      { target: big, pass: { accountId: 'small', before: daysAgo(10) } },
    ];
    await drainPasses(work, limits(3, 10));
    expect(big.calls.map((c) => c.accountId)).toEqual(['big', 'small', 'big']);
    expect(big.left.filter((d) => d.account === 'small')).toEqual([]);
    expect(big.left).toHaveLength(80);
  });

  it('stops at maxBatches and starts the next sweep further on, so every pass gets its turn', async () => {
    const t = fakeTarget([
      { account: 'a', ageDays: 50 },
      { account: 'b', ageDays: 50 },
      { account: 'c', ageDays: 50 },
    ]);
    const work = ['a', 'b', 'c'].map((accountId) => ({ target: t, pass: { accountId, before: daysAgo(10) } }));
    await drainPasses(work, { ...limits(1), offset: 0 });
    await drainPasses(work, { ...limits(1), offset: 1 });
    await drainPasses(work, { ...limits(1), offset: 2 });
    expect(t.calls.map((c) => c.accountId)).toEqual(['a', 'b', 'c']);
    expect(t.left).toEqual([]);
  });

  it('with more passes than maxBatches, each sweep starts where the previous stopped', async () => {
    const t = fakeTarget([]);
    const work = ['a', 'b', 'c', 'd', 'e'].map((accountId) => ({ target: t, pass: { accountId, before: daysAgo(10) } }));
    for (const offset of [0, 1, 2]) await drainPasses(work, { ...limits(2), offset });
    expect(t.calls.map((c) => c.accountId)).toEqual(['a', 'b', 'c', 'd', 'e', 'a']);
  });
});
