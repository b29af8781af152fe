import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStream, putStream, statObject, type S3Client } from '../src/index.js';
import { dropBucket, s3WithBucket, uniqueName } from './stack.js';

const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function chunked(data: Buffer, fail?: Error): Readable {
  let at = 0;
  return new Readable({
    read() {
      if (at >= data.length) return void (fail ? this.destroy(fail) : this.push(null));
      this.push(data.subarray(at, (at += 100_000)));
    },
  });
}

// putStream's overlap mode: the next part fills while the previous one is on its way.
describe('s3 putStream with overlap', () => {
  const bucket = uniqueName('kit-stores');
  let s3: S3Client;

  beforeAll(async () => {
    s3 = await s3WithBucket(bucket);
  });
  afterAll(() => dropBucket(s3, bucket));

  it('stores multipart objects of known and unknown size byte for byte, and small ones in one PUT', async () => {
    for (const [size, declared] of [
      [25 * MiB + 7, true],
      [16 * MiB, false],
      [3 * MiB, false],
    ] as const) {
      const data = randomBytes(size);
      const key = uniqueName('overlap');
      const put = await putStream(s3, bucket, key, chunked(data), declared ? size : undefined, {}, { overlap: true });
      expect(put.size).toBe(size);
      expect((await statObject(s3, bucket, key))?.size).toBe(size);
      const back: Buffer[] = [];
      for await (const c of (await getStream(s3, bucket, key))!) back.push(c as Buffer);
      expect(sha(Buffer.concat(back))).toBe(sha(data));
    }
  });

  it('fails on a source error with a part in flight, leaving no object and no open upload', async () => {
    const key = uniqueName('overlap-fail');
    const boom = new Error('client went away');
    await expect(putStream(s3, bucket, key, chunked(randomBytes(20 * MiB), boom), undefined, {}, { overlap: true })).rejects.toBe(boom);
    expect(await statObject(s3, bucket, key)).toBeNull();
    const open: string[] = [];
    for await (const u of s3.listIncompleteUploads(bucket, '', true)) open.push(u.key);
    expect(open).not.toContain(key);
  });
});
