import { freePort, s3Settings } from '@feedback/dev-stack';
import { createS3 } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../src/adapters/s3/blob.store.js';
import { logger, stack, startFileService, upload, type TestFileService } from './stack.js';

// S3 refuses connections (stopped or unreachable) while a client uploads: that is an outage the
// gateway answers 503 / 13009 with Retry-After for, not an internal error.
describe('an upload while S3 refuses connections', () => {
  let svc: TestFileService;
  beforeAll(async () => {
    svc = await startFileService();
  });
  afterAll(() => svc?.close());

  it('fails with UNAVAILABLE (13009), not INTERNAL', async () => {
    const dir = await svc.client.createDirectory({ accountId: 'acc-s3-down', name: 'inbox' });
    const deadS3 = createS3({ ...s3Settings(stack), endpoint: `http://127.0.0.1:${await freePort()}`, logger });
    svc.deps.blobs = new S3BlobStore(deadS3, svc.bucket);

    const err: unknown = await upload(svc.client.raw, { accountId: 'acc-s3-down', directoryId: dir.directory!.id, filename: 'a.csv' }, [
      Buffer.from('a,b\n'),
    ]).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'unavailable', code: 13009 });
  });
});
