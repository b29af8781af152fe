import { createHash } from 'node:crypto';
import { type Readable } from 'node:stream';
import { Client, type BucketItemStat, type ItemBucketMetadata } from 'minio';
import type { Logger } from '@feedback/kit-core';

export type { Client as S3Client, BucketItemStat, ItemBucketMetadata };

export interface S3Options {
  /** Full URL, e.g. http://127.0.0.1:9000 (scheme decides TLS, no path). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  logger: Logger;
  /**
   * Multipart part size (default 8 MiB, at least 5 MiB). `putStream` holds one part per
   * upload in memory, so this bounds memory per concurrent upload; 10,000 parts of 8 MiB
   * cap an object of unknown size at 78 GiB.
   */
  partSize?: number;
}

/**
 * A minio-js client for MinIO, versitygw or any S3 endpoint. Path-style addressing,
 * because local and on-premise servers have no per-bucket DNS names.
 */
export function createS3(opts: S3Options): Client {
  const url = new URL(opts.endpoint);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`s3: endpoint must be an http(s) URL, got ${opts.endpoint}`);
  }
  if (url.pathname !== '/' || url.search) throw new Error(`s3: endpoint must not have a path or query: ${opts.endpoint}`);
  const partSize = opts.partSize ?? 8 * 1024 * 1024;
  if (partSize < 5 * 1024 * 1024) throw new Error('s3: partSize must be at least 5 MiB (S3 minimum part size)');
  const useSSL = url.protocol === 'https:';
  const client = new Client({
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    pathStyle: true,
    accessKey: opts.accessKey,
    secretKey: opts.secretKey,
    region: opts.region,
    partSize,
  });
  opts.logger.debug({ s3: url.origin, region: opts.region }, 's3 client created');
  return client;
}

/** Creates the bucket unless it exists; safe when several replicas start at once. */
export async function ensureBucket(client: Client, name: string, region: string): Promise<void> {
  if (await client.bucketExists(name)) return;
  try {
    await client.makeBucket(name, region);
  } catch (err) {
    // Another replica won the race.
    if (errorCode(err) === 'BucketAlreadyOwnedByYou') return;
    throw err;
  }
}

export interface PutResult {
  etag: string;
  /** Bytes stored: useful when the size was not known up front. */
  size: number;
}

/**
 * Streams `source` into `bucket/key` holding one part (`partSize`) in memory, two with
 * `overlap`. Pass `size` when known: it is enforced (more or fewer bytes fail the upload). An
 * object smaller than a part is one PUT; a larger one a multipart upload, part after part.
 *
 * Why not `client.putObject` with a stream: minio-js 8 keeps about four parts alive at once
 * (the part being sent, the next one queued, the one being assembled and the chunks it was
 * assembled from) and never settles when the source errors mid-way (it pipes without
 * forwarding the error), so an aborted client upload would hang its caller. Here any failure
 * (source error or premature close, size mismatch, S3 error) destroys the source, aborts
 * the multipart upload, leaves no object and throws.
 */
export async function putStream(
  client: Client,
  bucket: string,
  key: string,
  source: Readable,
  size?: number,
  meta: ItemBucketMetadata = {},
  opts: PutStreamOptions = {},
): Promise<PutResult> {
  // S3 allows 10,000 parts: a huge declared size gets bigger parts.
  const partSize = size === undefined ? client.partSize : Math.max(client.partSize, Math.ceil(size / 10_000));
  const length = size === undefined ? partSize : Math.min(partSize, size);
  // A buffer is refilled only after its content was sent: parts.next() overwrites it.
  const buffers = [Buffer.allocUnsafe(length)];
  let turn = 0;
  const nextBuffer = () => {
    if (opts.overlap && buffers.length < 2 && turn > 0) buffers.push(Buffer.allocUnsafe(length));
    return buffers[turn++ % buffers.length]!;
  };
  const parts = fillParts(source, nextBuffer, size);
  let uploadId: string | undefined;
  let sending: Promise<unknown> | undefined;
  try {
    const first = await parts.next();
    const firstPart = first.done ? { buffer: buffers[0]!, length: 0 } : first.value;
    if (firstPart.length < length || length === 0 || size === firstPart.length) {
      await parts.next(); // checks the stream really ended there
      const info = await client.putObject(bucket, key, firstPart.buffer.subarray(0, firstPart.length), firstPart.length, meta);
      return { etag: info.etag, size: firstPart.length };
    }

    const id = (uploadId = await client.initiateNewMultipartUpload(bucket, key, metaHeaders(meta)));
    const etags: { part: number; etag: string }[] = [];
    let total = 0;
    const send = async (part: number, payload: Buffer) => {
      const headers = { 'Content-MD5': createHash('md5').update(payload).digest('base64') };
      const res = await client.uploadPart({ bucketName: bucket, objectName: key, uploadID: id, partNumber: part, headers }, payload);
      etags.push({ part, etag: res.etag });
    };
    let current: { buffer: Buffer; length: number } | undefined = firstPart;
    for (let part = 1; current !== undefined; part++) {
      total += current.length;
      sending = send(part, current.buffer.subarray(0, current.length));
      sending.catch(() => undefined); // awaited below; this only keeps a failure from going unhandled meanwhile
      // With overlap the next part fills (into the other buffer) while this one is sent.
      if (!opts.overlap) await sending;
      const next = await parts.next();
      await sending;
      current = next.done ? undefined : next.value;
    }
    sending = undefined;
    const info = await client.completeMultipartUpload(bucket, key, id, etags);
    return { etag: info.etag, size: total };
  } catch (err) {
    await parts.return(undefined).catch(() => undefined); // ends the for-await, which destroys the source
    source.destroy();
    await sending?.catch(() => undefined); // a part still on its way would outlive the abort
    if (uploadId !== undefined) await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
    throw err;
  }
}

export interface PutStreamOptions {
  /**
   * Reads the next part while the previous one is being sent (two part buffers instead of
   * one): the source keeps flowing during each part upload, at the cost of a second part of memory.
   */
  overlap?: boolean;
}

/**
 * Copies the stream into part buffers (from `nextBuffer`), yielding each one when it is full
 * and once more for a partial last part. Throws on a source error, a premature close (Node's async
 * iterator reports it) or a size mismatch.
 */
async function* fillParts(
  source: Readable,
  nextBuffer: () => Buffer,
  expected: number | undefined,
): AsyncGenerator<{ buffer: Buffer; length: number }, void, undefined> {
  // Taken only when a byte needs it, so a source that just ended takes no further buffer.
  let buffer: Buffer | undefined;
  let filled = 0;
  let total = 0;
  for await (const data of source) {
    const chunk = toBuffer(data);
    total += chunk.length;
    if (expected !== undefined && total > expected) {
      throw new Error(`s3: stream has more bytes than the declared size ${expected}`);
    }
    let offset = 0;
    while (offset < chunk.length) {
      buffer ??= nextBuffer();
      const n = chunk.copy(buffer, filled, offset);
      filled += n;
      offset += n;
      if (filled === buffer.length) {
        yield { buffer, length: filled };
        buffer = undefined;
        filled = 0;
      }
    }
  }
  if (expected !== undefined && total !== expected) {
    throw new Error(`s3: stream ended after ${total} of the declared ${expected} bytes`);
  }
  if (buffer && filled > 0) yield { buffer, length: filled };
}

function toBuffer(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError('s3: stream chunks must be Buffer, Uint8Array or string');
}

/** User metadata becomes X-Amz-Meta-*; standard headers pass as they are (as minio-js does). */
function metaHeaders(meta: ItemBucketMetadata): Record<string, string> {
  const standard = /^(content-(type|encoding|disposition|language)|cache-control|expires|x-amz-.*)$/i;
  return Object.fromEntries(Object.entries(meta).map(([k, v]) => [standard.test(k) ? k : `X-Amz-Meta-${k}`, String(v)]));
}

/**
 * Aborts the multipart uploads of `bucket` begun before `olderThan`, at most `limit` per call;
 * answers how many. putStream aborts its own upload when it fails, but a process killed midway
 * (or an S3 server that went away) leaves the upload open, and its parts stay in the bucket,
 * invisible to object listings, until someone aborts it. Run it from a periodic sweep with an
 * age no live upload reaches. An upload aborted meanwhile by someone else is not an error.
 */
export async function abortStaleUploads(client: Client, bucket: string, olderThan: Date, limit = 100): Promise<number> {
  let aborted = 0;
  let keyMarker = '';
  let uploadIdMarker = '';
  for (;;) {
    const page = await client.listIncompleteUploadsQuery(bucket, '', keyMarker, uploadIdMarker, '');
    for (const upload of page.uploads) {
      if (!(upload.initiated.getTime() < olderThan.getTime())) continue; // also skips an unreadable date
      try {
        await client.abortMultipartUpload(bucket, upload.key, upload.uploadId);
      } catch (err) {
        if (errorCode(err) !== 'NoSuchUpload') throw err;
      }
      if (++aborted >= limit) return aborted;
    }
    if (!page.isTruncated || !page.nextKeyMarker) return aborted;
    keyMarker = page.nextKeyMarker;
    uploadIdMarker = page.nextUploadIdMarker ?? '';
  }
}

/** The object as a stream, or null when there is no such key. */
export async function getStream(client: Client, bucket: string, key: string): Promise<Readable | null> {
  try {
    return await client.getObject(bucket, key);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/**
 * Size, etag, metadata; or null when there is no such key. A HEAD reply has no body, so a
 * missing bucket also reads as null here.
 */
export async function statObject(client: Client, bucket: string, key: string): Promise<BucketItemStat | null> {
  try {
    return await client.statObject(bucket, key);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** A missing key (not a missing bucket, which is a configuration error and throws). */
export function isNotFound(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
