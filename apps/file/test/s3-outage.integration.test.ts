import { createServer } from 'node:net';
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
    const srv = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => srv.once('listening', r));
    const { port } = srv.address() as { port: number };
    await new Promise((r) => srv.close(r));
    const deadS3 = createS3({
      endpoint: `http://127.0.0.1:${port}`,
      accessKey: stack.s3.access_key,
      secretKey: stack.s3.secret_key,
      region: stack.s3.region,
      logger,
    });
    svc.deps.blobs = new S3BlobStore(deadS3, svc.bucket);

    const err: unknown = await upload(svc.client.raw, { accountId: 'acc-s3-down', directoryId: dir.directory!.id, filename: 'a.csv' }, [
      Buffer.from('a,b\n'),
    ]).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'unavailable', code: 13009 });
  });
});
