import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStream, putStream, statObject, type S3Client } from '../src/index.js';
import { logger, s3WithBucket, uniqueName } from './stack.js';

const MiB = 1024 * 1024;
const SIZE = 100 * MiB;
const CHUNK = 64 * 1024;

/** Produces `size` pseudo-random bytes on demand, hashing what it hands out. */
function randomSource(size: number) {
  const hash = createHash('sha256');
  let produced = 0;
  const stream = new Readable({
    read() {
      if (produced >= size) return void this.push(null);
      const chunk = randomBytes(Math.min(CHUNK, size - produced));
      produced += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

/** Samples RSS while `fn` runs; returns the peak growth over the RSS at the start. */
async function peakRssGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - start };
  } finally {
    clearInterval(timer);
  }
}

describe('s3 streaming', () => {
  const bucket = uniqueName('kit-stores');
  const key = `${uniqueName('blob')}/big.bin`;
  let s3: S3Client;

  beforeAll(async () => {
    s3 = await s3WithBucket(bucket);
  });
  afterAll(async () => {
    await s3?.removeObject(bucket, key).catch(() => undefined);
    await s3?.removeBucket(bucket).catch(() => undefined);
  });

  it('streams 100 MiB in and out with bounded memory and an equal sha256', async () => {
    // Warm-up, so lazily loaded code (http agent, XML parser, signing) is not counted.
    await putStream(s3, bucket, key, randomSource(MiB).stream, MiB);
    for await (const _chunk of (await getStream(s3, bucket, key)) ?? []) void _chunk;

    const source = randomSource(SIZE);
    const up = await peakRssGrowth(() => putStream(s3, bucket, key, source.stream, SIZE, { 'Content-Type': 'application/octet-stream' }));
    expect(up.result.size).toBe(SIZE);
    expect(up.result.etag).toMatch(/\S/);
    expect((await statObject(s3, bucket, key))?.size).toBe(SIZE);

    const down = await peakRssGrowth(async () => {
      const stream = await getStream(s3, bucket, key);
      if (!stream) throw new Error('object missing');
      const hash = createHash('sha256');
      let bytes = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
      }
      return { bytes, digest: hash.digest('hex') };
    });

    expect(down.result.bytes).toBe(SIZE);
    expect(down.result.digest).toBe(source.digest());
    logger.info({ upMiB: up.growth / MiB, downMiB: down.growth / MiB }, 'rss growth');
    console.log(`rss growth: upload ${(up.growth / MiB).toFixed(1)} MiB, download ${(down.growth / MiB).toFixed(1)} MiB`);
    expect(up.growth).toBeLessThan(64 * MiB);
    expect(down.growth).toBeLessThan(64 * MiB);
  });
});
