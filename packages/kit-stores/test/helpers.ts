import { randomBytes } from 'node:crypto';
import { createLogger } from '@feedback/kit-core';
import { readStackFile } from '@feedback/dev-stack';

export const stack = readStackFile();
export const logger = createLogger('kit-stores-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** A fresh name per test, so runs never see each other's data. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}
