import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortStaleUploads, type S3Client } from '../src/index.js';
import { s3WithBucket, uniqueName } from './stack.js';

// An upload whose process died midway: initiated, one part sent, never completed nor aborted.
describe('abortStaleUploads', () => {
  const bucket = uniqueName('kit-stores-stale');
  let s3: S3Client;

  const openUploads = async () => (await s3.listIncompleteUploadsQuery(bucket, '', '', '', '')).uploads.map((u) => u.key).sort();
  const orphan = async (key: string) => {
    const uploadID = await s3.initiateNewMultipartUpload(bucket, key, {});
    await s3.uploadPart({ bucketName: bucket, objectName: key, uploadID, partNumber: 1, headers: {} }, Buffer.alloc(64 * 1024, 1));
  };

  beforeAll(async () => {
    s3 = await s3WithBucket(bucket);
  });
  afterAll(async () => {
    await abortStaleUploads(s3, bucket, new Date(Date.now() + 3_600_000)).catch(() => undefined);
    await s3?.removeBucket(bucket).catch(() => undefined);
  });

  it('aborts the uploads begun before the cut-off, leaves younger ones, and respects the limit', async () => {
    await orphan('a/one');
    await orphan('b/two');
    await orphan('c/three');
    expect(await openUploads()).toEqual(['a/one', 'b/two', 'c/three']);

    expect(await abortStaleUploads(s3, bucket, new Date(Date.now() - 60_000))).toBe(0);
    expect(await openUploads()).toHaveLength(3);

    const later = new Date(Date.now() + 60_000);
    expect(await abortStaleUploads(s3, bucket, later, 2)).toBe(2);
    expect(await openUploads()).toHaveLength(1);
    expect(await abortStaleUploads(s3, bucket, later)).toBe(1);
    expect(await openUploads()).toEqual([]);
  });
});
