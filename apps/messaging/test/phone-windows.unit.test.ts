import { describe, expect, it } from 'vitest';
import { phoneWindows, type PhoneWindow } from '../src/shared/adapters/mongo/phone-windows.js';

// The ranges a status page of a sharing's recipients reads one query each: whatever the start,
// together they hold every phone above it exactly once, in order, narrow first.

const inside = (w: PhoneWindow, p: string) => (w.inclusive ? p >= w.from : p > w.from) && (w.to === null || p < w.to);

describe('phoneWindows', () => {
  const phones = [
    '905320000000',
    '905320000001',
    '905320000099',
    '905320000100',
    '905329999999',
    '905330000000',
    '90533',
    '9053300000001',
    '12025550123',
    '447700900123',
    '99999999999',
    '999',
    '9',
  ].sort();

  it('covers every phone above the start exactly once, in order', () => {
    for (const after of ['', ...phones])
      for (const near of [undefined, ...phones]) {
        const windows = [...phoneWindows(after, near)];
        const seen = windows.flatMap((w) => phones.filter((p) => inside(w, p)));
        expect(seen, `after ${after}, near ${near}`).toEqual(phones.filter((p) => p > after));
        expect(windows.at(-1)!.to).toBeNull();
      }
  });

  it('starts next to the start and widens about threefold', () => {
    const windows = [...phoneWindows('905320050000')];
    expect(windows.slice(0, 5)).toEqual([
      { from: '905320050000', inclusive: false, to: '90532005003' },
      { from: '90532005003', inclusive: true, to: '9053200501' },
      { from: '9053200501', inclusive: true, to: '9053200503' },
      { from: '9053200503', inclusive: true, to: '905320051' },
      { from: '905320051', inclusive: true, to: '905320053' },
    ]);
    expect([...phoneWindows('', '905320000000')][0]).toEqual({ from: '', inclusive: false, to: '905320000000' });
    expect([...phoneWindows('')]).toEqual([{ from: '', inclusive: false, to: null }]);
  });
});
