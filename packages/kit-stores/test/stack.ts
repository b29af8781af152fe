import { randomBytes } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile, s3Settings } from '@feedback/dev-stack';
import { createS3, ensureBucket, type S3Client } from '../src/index.js';

export const stack = readStackFile();
export const logger = createLogger('kit-stores-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** A fresh name per test, so runs never see each other's data. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

/** A client of the running stack's S3, with `bucket` created. */
export async function s3WithBucket(bucket: string): Promise<S3Client> {
  const s3 = createS3({
    ...s3Settings(stack),
    logger,
  });
  await ensureBucket(s3, bucket, stack.s3.region);
  return s3;
}

/** Empties a test's bucket and removes it. */
export async function dropBucket(s3: S3Client, bucket: string): Promise<void> {
  const keys: string[] = [];
  for await (const o of s3.listObjectsV2(bucket, '', true)) if (o.name) keys.push(o.name);
  if (keys.length) await s3.removeObjects(bucket, keys);
  await s3.removeBucket(bucket).catch(() => undefined);
}
