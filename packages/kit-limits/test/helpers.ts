import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { readStackFile } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core';

/** The running local stack's Redis (`./stack up`); never a mock. */
export const stack = readStackFile();
export const logger = createLogger('kit-limits-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** A fresh key prefix per test, so runs never share counters. */
export const uniq = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

export async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as { port: number };
  srv.close();
  await once(srv, 'close');
  return port;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
