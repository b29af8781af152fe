import { FileProcessingStatus, type FileProcessing } from '@feedback/proto/feedback/file/v1/file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { republishProcessed } from '../src/domain/workflow.use-cases.js';
import { startFileService, uniq, upload, waitFor, type TestFileService } from './stack.js';

// A bound name's processing (docs/api.md "Workflows on files") against the real MongoDB-compatible
// server: the pending mark at upload, one outcome standing among racing reports, the event's flag.
describe('processing shown on the entry, over gRPC', () => {
  let svc: TestFileService;
  const account = uniq('acc');

  beforeAll(async () => {
    svc = await startFileService();
  });
  afterAll(() => svc?.close());

  const report = (status: FileProcessingStatus, sharingId: string): FileProcessing => ({
    status,
    sharingId,
    rows: 2,
    accepted: 1,
    rejected: 1,
    errors: [{ row: 3, reason: 'not_a_number' }],
    reason: status === FileProcessingStatus.FILE_PROCESSING_STATUS_FAILED ? 'refused' : '',
    processedAt: '',
  });

  it('marks a bound name pending at upload; of eight racing reports one stands, and file.processed is sent once', async () => {
    const dir = (await svc.client.createDirectory({ accountId: account, name: uniq('wf') })).directory!;
    await svc.client.setWorkflowBinding({ accountId: account, directoryId: dir.id, filename: 'customers.csv', bound: true });
    const send = (filename: string) =>
      upload(svc.client.raw, { accountId: account, directoryId: dir.id, filename }, [Buffer.from('phone\n')]);
    const bound = await send('customers.csv');
    expect(bound.processing).toMatchObject({ status: FileProcessingStatus.FILE_PROCESSING_STATUS_PENDING, processedAt: '' });
    expect((await send('other.csv')).processing).toBeUndefined();

    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        svc.client.recordProcessing({
          accountId: account,
          fileId: bound.id,
          processing: report(
            i % 2 ? FileProcessingStatus.FILE_PROCESSING_STATUS_FAILED : FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED,
            `s${i}`,
          ),
        }),
      ),
    );
    const stored = (await svc.client.getFile({ accountId: account, directoryId: dir.id, fileId: bound.id })).file!.processing!;
    expect(stored.processedAt).not.toBe('');
    // Every answer, the first report's and the repeats', is the one outcome that stands.
    for (const a of answers) expect(a.file!.processing).toEqual(stored);
    expect(stored.errors).toEqual([{ row: 3, reason: 'not_a_number' }]);

    // Once Kafka has the event the entry no longer marks it due.
    const due = async () => (await svc.mongo.db.collection('files').findOne({ _id: bound.id as never }))?.processed_event_due;
    await waitFor('file.processed sent', async () => (await due()) === undefined);
    expect(await republishProcessed(svc.deps, 0)).toBe(0);

    // Another account's file reads as unknown.
    await expect(
      svc.client.recordProcessing({
        accountId: uniq('other'),
        fileId: bound.id,
        processing: report(FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED, 's'),
      }),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('sends a file.processed still due later (the report answered before Kafka had it)', async () => {
    const dir = (await svc.client.createDirectory({ accountId: account, name: uniq('wf') })).directory!;
    await svc.client.setWorkflowBinding({ accountId: account, directoryId: dir.id, filename: 'customers.csv', bound: true });
    const file = await upload(svc.client.raw, { accountId: account, directoryId: dir.id, filename: 'customers.csv' }, [
      Buffer.from('phone\n'),
    ]);
    await svc.client.recordProcessing({
      accountId: account,
      fileId: file.id,
      processing: report(FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED, 's1'),
    });
    const files = svc.mongo.db.collection('files');
    await files.updateOne({ _id: file.id as never }, { $set: { processed_event_due: true } });
    expect(await republishProcessed(svc.deps, 0)).toBe(1);
    expect((await files.findOne({ _id: file.id as never }))?.processed_event_due).toBeUndefined();
  });
});
