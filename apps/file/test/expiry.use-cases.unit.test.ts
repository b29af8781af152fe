import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openBlob } from '../src/domain/blob.use-cases.js';
import { createDirectory } from '../src/domain/directory.use-cases.js';
import { expireDue } from '../src/domain/expiry.use-cases.js';
import { uploadFile } from '../src/domain/upload.use-cases.js';
import { memoryDeps } from './fakes/memory-deps.js';

const DAY = 24 * 3600_000;
const opts = (holder: string) => ({ holder, leaseMs: 60_000, batch: 10 });

async function setup(count: number) {
  const m = memoryDeps();
  const dir = await createDirectory(m.deps, 'acc-1', 'inbox');
  const files = [];
  for (let i = 0; i < count; i++) {
    files.push(
      await uploadFile(
        m.deps,
        { accountId: 'acc-1', directoryId: dir.id, filename: `f${i}.csv`, originalFilename: '', contentType: '', userId: 't' },
        { bytes: Readable.from([Buffer.from('x')]), trailerFilename: () => undefined },
      ),
    );
  }
  m.state.published.length = 0;
  return { ...m, files };
}

describe('expireDue', () => {
  it('leaves files alone until retention passes, then removes the bytes, sets expired_at and publishes once', async () => {
    const { deps, state, files, advance } = await setup(3);
    advance(7 * DAY - 1);
    expect(await expireDue(deps, opts('a'))).toBe(0);
    advance(1);
    expect(await Promise.all([expireDue(deps, opts('a')), expireDue(deps, opts('b'))])).toSatisfy(([a, b]: number[]) => a! + b! === 3);
    expect(await expireDue(deps, opts('a'))).toBe(0);
    expect(state.objects.size).toBe(0);
    expect(state.published.map((p) => p.eventId).sort()).toEqual(files.map((f) => `file.expired:${f.id}`).sort());
    for (const f of files) expect(state.files.get(f.id)?.expiredAt).toEqual(deps.clock.now());
    await expect(openBlob(deps, files[0]!.blobToken, undefined, false)).rejects.toMatchObject({ kind: 'gone', code: 13006 });
  });

  it('after a crash midway, the next lease holder finishes the file under the same event id', async () => {
    const { deps, state, files, advance } = await setup(1);
    advance(7 * DAY);
    const crashing = { ...deps, events: { ...deps.events, expired: () => Promise.reject(new Error('crashed')) } };
    expect(await expireDue(crashing, opts('a'))).toBe(0);
    expect(await expireDue(deps, opts('b'))).toBe(0); // a's lease still runs
    advance(60_000);
    expect(await expireDue(deps, opts('b'))).toBe(1);
    expect(state.published.map((p) => p.eventId)).toEqual([`file.expired:${files[0]!.id}`]);
  });

  it('answers gone for a file past retention even before the job ran', async () => {
    const { deps, files, advance } = await setup(1);
    advance(7 * DAY);
    await expect(openBlob(deps, files[0]!.blobToken, undefined, true)).rejects.toMatchObject({ kind: 'gone' });
  });
});
