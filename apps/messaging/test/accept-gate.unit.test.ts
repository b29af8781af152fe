import { describe, expect, it } from 'vitest';
import { acceptGate } from '../src/intake/adapters/accept-gate.js';

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 10));
  return done;
};

describe('the accept gate', () => {
  it('lets a batch start at once while no sharing is being accepted', async () => {
    expect(await settled(acceptGate().clear())).toBe(true);
  });

  it('holds batches while accepts run and releases them when the last one ends, failed or not', async () => {
    const gate = acceptGate(10_000);
    let finishFirst!: () => void;
    const first = gate.during(() => new Promise<void>((r) => (finishFirst = r)));
    const second = gate.during(async () => {
      throw new Error('refused');
    });
    await expect(second).rejects.toThrow('refused');
    const batch = gate.clear();
    expect(await settled(batch)).toBe(false);
    finishFirst();
    await first;
    expect(await settled(batch)).toBe(true);
    expect(await gate.during(async () => 42)).toBe(42);
  });

  it('lets a batch go after maxWaitMs even while accepts keep running', async () => {
    const gate = acceptGate(30);
    void gate.during(() => new Promise(() => {}));
    const batch = gate.clear();
    expect(await settled(batch)).toBe(false);
    await new Promise((r) => setTimeout(r, 40));
    expect(await settled(batch)).toBe(true);
  });
});
