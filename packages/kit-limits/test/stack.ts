import { randomBytes } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core/runtime';

export { freePort } from '@feedback/dev-stack';

/** The running local stack's Redis (`./stack up`); never a mock. */
export const stack = readStackFile();
export const logger = createLogger('kit-limits-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** A fresh key prefix per test, so runs never share counters. */
export const uniq = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
