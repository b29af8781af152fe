import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { errors } from '@feedback/kit-core';

/** Passes bytes through while counting and hashing them; fails as too_large past `maxBytes`. */
export class ByteMeter extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(tooLarge(this.maxBytes));
    this.hash.update(chunk);
    done(null, chunk);
  }

  sha256(): string {
    return this.hash.digest('hex');
  }
}

export const tooLarge = (maxBytes: number) => errors.tooLarge({ file: `must be at most ${maxBytes} bytes` });
