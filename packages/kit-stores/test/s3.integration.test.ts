import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3, ensureBucket, getStream, putStream, statObject, type S3Client } from '../src/index.js';
import { dropBucket, logger, s3WithBucket, stack, uniqueName } from './stack.js';

const MiB = 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** Yields `bytes` random bytes in 64 KiB chunks, then fails with `error` if given. */
function source(bytes: number, error?: Error): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return void (error ? this.destroy(error) : this.push(null));
      const chunk = randomBytes(Math.min(64 * 1024, bytes - sent));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

async function incompleteUploads(s3: S3Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const u of s3.listIncompleteUploads(bucket, '', true)) keys.push(u.key);
  return keys;
}

describe('s3', () => {
  const bucket = uniqueName('kit-stores');
  let s3: S3Client;

  beforeAll(async () => {
    s3 = await s3WithBucket(bucket);
  });
  afterAll(async () => {
    if (s3) await dropBucket(s3, bucket);
  });

  it('ensureBucket is idempotent, also when replicas race', async () => {
    await ensureBucket(s3, bucket, stack.s3.region);
    const fresh = uniqueName('kit-stores');
    await Promise.all(Array.from({ length: 5 }, () => ensureBucket(s3, fresh, stack.s3.region)));
    expect(await s3.bucketExists(fresh)).toBe(true);
    await s3.removeBucket(fresh);
  });

  it('rejects an endpoint it cannot address', () => {
    const base = { accessKey: 'a', secretKey: 'b', region: 'us-east-1', logger };
    expect(() => createS3({ ...base, endpoint: 'ftp://127.0.0.1:9000' })).toThrow(/http\(s\)/);
    expect(() => createS3({ ...base, endpoint: 'http://127.0.0.1:9000/bucket' })).toThrow(/path/);
    expect(() => createS3({ ...base, endpoint: 'http://127.0.0.1:9000', partSize: MiB })).toThrow(/5 MiB/);
  });

  it('stores a small object in one PUT with its metadata, and reads it back', async () => {
    const key = `${uniqueName('small')}/hello.txt`;
    const body = Buffer.from('hello, feedback');
    const put = await putStream(s3, bucket, key, Readable.from([body]), undefined, {
      'Content-Type': 'text/plain',
      filename: 'hello.txt',
    });
    expect(put.size).toBe(body.length);
    const stat = await statObject(s3, bucket, key);
    expect(stat?.size).toBe(body.length);
    expect(stat?.etag).toBe(put.etag);
    expect(stat?.metaData['content-type']).toBe('text/plain');
    expect(stat?.metaData['filename']).toBe('hello.txt');
    const stream = await getStream(s3, bucket, key);
    expect(stream).not.toBeNull();
    expect((await readAll(stream!)).toString()).toBe('hello, feedback');
  });

  it('stores empty objects, with and without a declared size', async () => {
    for (const size of [0, undefined]) {
      const key = uniqueName('empty');
      expect((await putStream(s3, bucket, key, Readable.from([]), size)).size).toBe(0);
      expect((await statObject(s3, bucket, key))?.size).toBe(0);
    }
  });

  it('streams a multipart object of unknown size with its metadata', async () => {
    const key = uniqueName('multi');
    const data = randomBytes(20 * MiB + 123); // 3 parts of 8 MiB, the last one short
    const chunks = Array.from({ length: Math.ceil(data.length / 100_000) }, (_, i) => data.subarray(i * 100_000, (i + 1) * 100_000));
    const put = await putStream(s3, bucket, key, Readable.from(chunks), undefined, { 'Content-Type': 'application/pdf', owner: 'a1' });
    expect(put.size).toBe(data.length);
    const stat = await statObject(s3, bucket, key);
    expect(stat?.size).toBe(data.length);
    expect(stat?.metaData['content-type']).toBe('application/pdf');
    expect(stat?.metaData['owner']).toBe('a1');
    const back = await readAll((await getStream(s3, bucket, key))!);
    expect(createHash('sha256').update(back).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('answers null for a missing key; getStream throws for a missing bucket', async () => {
    expect(await statObject(s3, bucket, uniqueName('missing'))).toBeNull();
    expect(await getStream(s3, bucket, uniqueName('missing'))).toBeNull();
    await expect(getStream(s3, uniqueName('no-bucket'), 'k')).rejects.toMatchObject({ code: 'NoSuchBucket' });
  });

  it('fails, leaving no object and no open multipart upload, when the source errors mid-way', async () => {
    const key = uniqueName('aborted');
    const boom = new Error('client went away');
    const outcome = await Promise.race([
      putStream(s3, bucket, key, source(20 * MiB, boom), 40 * MiB).then(
        () => 'resolved',
        (err: unknown) => err,
      ),
      new Promise((r) => setTimeout(r, 30_000, 'still pending after 30 s')),
    ]);
    expect(outcome).toBe(boom);
    expect(await statObject(s3, bucket, key)).toBeNull();
    expect(await incompleteUploads(s3, bucket)).not.toContain(key);
  });

  it('fails on a premature close and on a size mismatch', async () => {
    const closed = source(12 * MiB);
    setTimeout(() => closed.destroy(), 50);
    await expect(putStream(s3, bucket, uniqueName('closed'), closed)).rejects.toThrow(/premature close/i);

    const longer = uniqueName('longer');
    await expect(putStream(s3, bucket, longer, source(20 * MiB), 10 * MiB)).rejects.toThrow(/more bytes than the declared/);
    const shorter = uniqueName('shorter');
    await expect(putStream(s3, bucket, shorter, source(10 * MiB), 20 * MiB)).rejects.toThrow(/ended after/);
    const small = uniqueName('small-longer');
    await expect(putStream(s3, bucket, small, source(100), 10)).rejects.toThrow(/more bytes than the declared/);
    for (const key of [longer, shorter, small]) expect(await statObject(s3, bucket, key)).toBeNull();
    expect(await incompleteUploads(s3, bucket)).toEqual([]);
  });
});
