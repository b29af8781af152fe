import type { Readable } from 'node:stream';
import { abortStaleUploads, getStream, isNotFound, putStream, type S3Client } from '@feedback/kit-stores';
import type { BlobStore, StoredBlob } from '../../domain/ports.js';

/** The bytes of every file, in one bucket, under keys the domain makes unique per upload. */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, bytes: Readable, opts: { size?: number; contentType: string }): Promise<StoredBlob> {
    // overlap: the upload keeps reading from the gateway while a part is on its way to S3.
    const { size } = await putStream(this.s3, this.bucket, key, bytes, opts.size, { 'Content-Type': opts.contentType }, { overlap: true });
    return { size };
  }

  async read(key: string, range?: { offset: number; length: number }): Promise<Readable | null> {
    if (!range) return getStream(this.s3, this.bucket, key);
    try {
      return await this.s3.getPartialObject(this.bucket, key, range.offset, range.length);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.s3.removeObject(this.bucket, key);
  }

  abortStaleUploads(olderThan: Date, limit: number): Promise<number> {
    return abortStaleUploads(this.s3, this.bucket, olderThan, limit);
  }
}
