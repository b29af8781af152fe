import { ProcessingOutcome, ProcessingState } from '@feedback/proto/feedback/file/v1/file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileService, uniq, upload, type TestFileService } from './stack.js';

// The workflow claim (docs/api.md "Workflows on files") against the real MongoDB-compatible server, where only inserts are atomic.
describe('workflow claims over gRPC', () => {
  let svc: TestFileService;
  const account = uniq('acc');

  beforeAll(async () => {
    svc = await startFileService();
  });
  afterAll(() => svc?.close());

  async function directoryWith(names: string[]) {
    const dir = (await svc.client.createDirectory({ accountId: account, name: uniq('wf') })).directory!;
    const files = [];
    for (const filename of names) {
      files.push(
        await upload(svc.client.raw, { accountId: account, directoryId: dir.id, filename }, [Buffer.from(`phone\n${files.length}\n`)]),
      );
      await new Promise((r) => setTimeout(r, 5)); // distinct created_at, as real uploads have
    }
    return { dir, files };
  }

  const states = async (dirId: string) =>
    Object.fromEntries(
      (await svc.client.listFiles({ accountId: account, directoryId: dirId })).files.map((f) => [f.id, f.processingState]),
    );

  it('lets one of eight concurrent claimers win the latest file and supersedes the older ones', async () => {
    const { dir, files } = await directoryWith(['list.csv', 'list.csv', 'other.csv', 'list.csv']);
    const [old1, old2, other, latest] = files;
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        svc.client.claimLatestFile({ accountId: account, directoryId: dir.id, filename: 'list.csv', claimer: `sharing-${i}` }),
      ),
    );
    const winners = claims.filter((c) => c.file);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.file).toMatchObject({ id: latest!.id, processingState: ProcessingState.PROCESSING_STATE_PROCESSING });
    expect(claims.reduce((n, c) => n + c.superseded, 0)).toBe(2);
    expect(await states(dir.id)).toEqual({
      [old1!.id]: ProcessingState.PROCESSING_STATE_SUPERSEDED,
      [old2!.id]: ProcessingState.PROCESSING_STATE_SUPERSEDED,
      [other!.id]: ProcessingState.PROCESSING_STATE_UNPROCESSED,
      [latest!.id]: ProcessingState.PROCESSING_STATE_PROCESSING,
    });
  });

  it('runs no workflow without an unprocessed file, and a new upload is claimable again', async () => {
    const { dir, files } = await directoryWith(['a.csv']);
    const claim = (claimer: string) => svc.client.claimLatestFile({ accountId: account, directoryId: dir.id, filename: 'a.csv', claimer });
    const first = await claim('w1');
    expect(first.file).toMatchObject({
      id: files[0]!.id,
      filename: 'a.csv',
      processingState: ProcessingState.PROCESSING_STATE_PROCESSING,
    });
    expect((await claim('w2')).file).toBeUndefined();
    expect(
      (await svc.client.claimLatestFile({ accountId: account, directoryId: dir.id, filename: 'never.csv', claimer: 'w' })).file,
    ).toBeUndefined();

    const done = await svc.client.completeProcessing({
      accountId: account,
      fileId: first.file!.id,
      claimer: 'w1',
      outcome: ProcessingOutcome.PROCESSING_OUTCOME_PROCESSED,
    });
    expect(done.file?.processingState).toBe(ProcessingState.PROCESSING_STATE_PROCESSED);
    await expect(
      svc.client.completeProcessing({
        accountId: account,
        fileId: first.file!.id,
        claimer: 'w1',
        outcome: ProcessingOutcome.PROCESSING_OUTCOME_FAILED,
      }),
    ).rejects.toMatchObject({ kind: 'conflict' });

    const next = await upload(svc.client.raw, { accountId: account, directoryId: dir.id, filename: 'a.csv' }, [Buffer.from('x')]);
    expect((await claim('w3')).file?.id).toBe(next.id);
  });

  it('lets only the claimer end processing, and scopes claims by account', async () => {
    const { dir } = await directoryWith(['b.csv']);
    const { file } = await svc.client.claimLatestFile({ accountId: account, directoryId: dir.id, filename: 'b.csv', claimer: 'owner' });
    await expect(
      svc.client.completeProcessing({
        accountId: account,
        fileId: file!.id,
        claimer: 'intruder',
        outcome: ProcessingOutcome.PROCESSING_OUTCOME_PROCESSED,
      }),
    ).rejects.toMatchObject({ kind: 'conflict', code: 13003 });
    await expect(
      svc.client.completeProcessing({
        accountId: uniq('other'),
        fileId: file!.id,
        claimer: 'owner',
        outcome: ProcessingOutcome.PROCESSING_OUTCOME_PROCESSED,
      }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await expect(
      svc.client.claimLatestFile({ accountId: uniq('other'), directoryId: dir.id, filename: 'b.csv', claimer: 'x' }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    const failed = await svc.client.completeProcessing({
      accountId: account,
      fileId: file!.id,
      claimer: 'owner',
      outcome: ProcessingOutcome.PROCESSING_OUTCOME_FAILED,
    });
    expect(failed.file?.processingState).toBe(ProcessingState.PROCESSING_STATE_FAILED);
  });
});
