import { describe, expect, it } from 'vitest';
import { claimLatestFile, completeProcessing } from '../src/domain/claim.use-cases.js';
import { createDirectory } from '../src/domain/directory.use-cases.js';
import { uploadFile } from '../src/domain/upload.use-cases.js';
import { Readable } from 'node:stream';
import { memoryDeps } from './fakes/memory-deps.js';

async function setup() {
  const m = memoryDeps();
  const dir = await createDirectory(m.deps, 'acc-1', 'sms');
  const upload = async (filename: string) => {
    const file = await uploadFile(
      m.deps,
      { accountId: 'acc-1', directoryId: dir.id, filename, originalFilename: '', contentType: '', userId: 't' },
      { bytes: Readable.from([Buffer.from(filename)]), trailerFilename: () => undefined },
    );
    m.advance(1000);
    return file;
  };
  return { ...m, dir, upload };
}

describe('claimLatestFile', () => {
  it('claims the newest unprocessed file of the name and supersedes the older ones', async () => {
    const { deps, dir, upload, state } = await setup();
    const old1 = await upload('phones.csv');
    const old2 = await upload('phones.csv');
    const other = await upload('other.csv');
    const latest = await upload('phones.csv');
    const claim = await claimLatestFile(deps, 'acc-1', dir.id, 'phones.csv', 'sharing-1');
    expect(claim.file).toMatchObject({ id: latest.id, processingState: 'processing', claimedBy: 'sharing-1' });
    expect(claim.superseded).toBe(2);
    expect(state.records.get(old1.id)?.state).toBe('superseded');
    expect(state.records.get(old2.id)?.state).toBe('superseded');
    expect(state.records.has(other.id)).toBe(false);
  });

  it('runs no workflow when there is no unprocessed file of the name', async () => {
    const { deps, dir, upload } = await setup();
    expect(await claimLatestFile(deps, 'acc-1', dir.id, 'phones.csv', 'c')).toEqual({ file: null, superseded: 0 });
    await upload('phones.csv');
    expect((await claimLatestFile(deps, 'acc-1', dir.id, 'phones.csv', 'c')).file).not.toBeNull();
    expect((await claimLatestFile(deps, 'acc-1', dir.id, 'phones.csv', 'c')).file).toBeNull();
  });

  it('gives the file to one of several concurrent claimers', async () => {
    const { deps, dir, upload } = await setup();
    await upload('phones.csv');
    const latest = await upload('phones.csv');
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((c) => claimLatestFile(deps, 'acc-1', dir.id, 'phones.csv', c)));
    const winners = claims.filter((c) => c.file);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.file!.id).toBe(latest.id);
    expect(claims.reduce((n, c) => n + c.superseded, 0)).toBe(1);
  });

  it('ends processing as processed or failed, only for the claimer', async () => {
    const { deps, dir, upload } = await setup();
    const file = await upload('phones.csv');
    await claimLatestFile(deps, 'acc-1', dir.id, 'phones.csv', 'me');
    await expect(completeProcessing(deps, 'acc-1', file.id, 'someone-else', 'processed')).rejects.toMatchObject({ kind: 'conflict' });
    await expect(completeProcessing(deps, 'acc-2', file.id, 'me', 'processed')).rejects.toMatchObject({ kind: 'not_found' });
    expect(await completeProcessing(deps, 'acc-1', file.id, 'me', 'failed')).toMatchObject({ processingState: 'failed' });
    await expect(completeProcessing(deps, 'acc-1', file.id, 'me', 'processed')).rejects.toMatchObject({
      kind: 'conflict',
      fields: { file_id: 'is failed' },
    });
  });

  it("answers not found for another account's directory", async () => {
    const { deps, dir } = await setup();
    await expect(claimLatestFile(deps, 'acc-2', dir.id, 'x.csv', 'c')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
