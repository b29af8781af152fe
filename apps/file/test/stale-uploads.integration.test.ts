import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMaintenance } from '../src/jobs/maintenance.job.js';
import { startFileService, waitFor, type TestFileService } from './stack.js';

// What a file service killed mid-upload leaves behind: a multipart upload with parts, never
// completed or aborted, invisible to object listings. The maintenance job aborts it once old.
describe('open multipart uploads a crash left behind', () => {
  let svc: TestFileService;
  beforeAll(async () => {
    svc = await startFileService();
  });
  afterAll(() => svc?.close());

  const openUploads = async () => (await svc.s3.listIncompleteUploadsQuery(svc.bucket, '', '', '', '')).uploads.map((u) => u.key);
  const orphan = async (key: string) => {
    const uploadID = await svc.s3.initiateNewMultipartUpload(svc.bucket, key, {});
    await svc.s3.uploadPart(
      { bucketName: svc.bucket, objectName: key, uploadID, partNumber: 1, headers: {} },
      Buffer.alloc(5 * 1024 * 1024, 7),
    );
  };
  const maintain = (staleUploadMs: number) =>
    startMaintenance(svc.deps, { holder: 'test', intervalMs: 100, leaseMs: 30_000, batch: 10, staleUploadMs });

  it('are aborted by the maintenance job once older than the limit, not before', async () => {
    await orphan('acc/crashed-upload');
    const young = maintain(60_000);
    await new Promise((r) => setTimeout(r, 800)); // several runs
    await young.close();
    expect(await openUploads()).toEqual(['acc/crashed-upload']);

    await new Promise((r) => setTimeout(r, 1_100)); // S3 dates the upload to the second
    const job = maintain(500);
    try {
      await waitFor('the stale upload to be aborted', async () => (await openUploads()).length === 0, 10_000);
    } finally {
      await job.close();
    }
  });
});
