import { describe, expect, it } from 'vitest';
import { countClicks } from '../src/domain/click-counting.js';
import { MemoryTallies } from './fakes/memory-deps.js';

const clicks = (code: string, offsets: number[], each = 1) => offsets.map((offset) => ({ code, offset, clicks: each }));

describe('countClicks', () => {
  it('counts each click once per link', async () => {
    const t = new MemoryTallies();
    await countClicks(t, 0, [...clicks('a', [0, 2, 3]), ...clicks('b', [1])]);
    expect((await t.get('a'))?.count).toBe(3);
    expect((await t.get('b'))?.count).toBe(1);
  });

  it('adds nothing for a redelivered batch, and only the new part of an overlapping one', async () => {
    const t = new MemoryTallies();
    await countClicks(t, 0, clicks('a', [10, 11, 12]));
    expect(await countClicks(t, 0, clicks('a', [10, 11, 12]))).toEqual({ counted: 0 });
    expect(await countClicks(t, 0, clicks('a', [11, 12, 13, 14]))).toEqual({ counted: 2 });
    expect((await t.get('a'))?.count).toBe(5);
  });

  it('adds every click a record stands for, once', async () => {
    const t = new MemoryTallies();
    expect(await countClicks(t, 0, [...clicks('a', [0], 250), ...clicks('a', [1], 3)])).toEqual({ counted: 253 });
    expect(await countClicks(t, 0, [...clicks('a', [0], 250), ...clicks('a', [1], 3), ...clicks('a', [2], 7)])).toEqual({ counted: 7 });
    expect((await t.get('a'))?.count).toBe(260);
  });

  it('keeps a checkpoint per partition', async () => {
    const t = new MemoryTallies();
    await countClicks(t, 0, clicks('a', [100]));
    await countClicks(t, 1, clicks('a', [5]));
    await countClicks(t, 1, clicks('a', [5, 6]));
    expect(await t.get('a')).toEqual({ count: 3, checkpoints: { 0: 100, 1: 6 } });
  });

  it('does not count twice when another consumer counted the same clicks first', async () => {
    const t = new MemoryTallies();
    t.beforeAdvance = async () => {
      await countClicks(t, 0, clicks('a', [1, 2]));
    };
    const mine = await countClicks(t, 0, clicks('a', [1, 2, 3]));
    expect(mine).toEqual({ counted: 1 });
    expect((await t.get('a'))?.count).toBe(3);
  });
});
