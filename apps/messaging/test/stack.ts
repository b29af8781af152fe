import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort, readStackFile } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core';
import { connectMongo, ensureIndexes, type MongoHandle } from '@feedback/kit-stores';
import { messagingIndexes } from '../src/adapters/mongo/indexes.js';

/** The running local stack (`./stack up`); never a mock. */
export const stack = readStackFile();
export const logger = createLogger('messaging-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const uniq = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

/** A database of its own for one test file, on the stack's MongoDB, with messaging's indexes. */
export async function openTestDb(): Promise<MongoHandle> {
  const mongo = await connectMongo({ url: stack.mongo_url, dbName: uniq('messaging_test'), logger });
  await ensureIndexes(mongo.db, messagingIndexes);
  return mongo;
}

/** Drops what openTestDb made and closes it (a failed open leaves nothing to drop). */
export async function dropTestDb(mongo: MongoHandle | undefined): Promise<void> {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the condition holds; fails naming `what` after the timeout. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await sleep(50);
  }
}

const KANNEL_SH = fileURLToPath(new URL('../../../infra/kannel.sh', import.meta.url));

export interface KannelSettings {
  KANNEL_SENDSMS_URL: string;
  KANNEL_SENDSMS_USER: string;
  KANNEL_SENDSMS_PASSWORD: string;
  KANNEL_FAKESMSC_LOG: string;
}

/**
 * Starts Kannel (bearerbox, smsbox, fakesmsc) unless it runs; `stop` stops it only if this
 * call started it, so a developer's running gateway is left alone.
 */
export function ensureKannel(): { settings: KannelSettings; stop: () => void } {
  const running = execFileSync(KANNEL_SH, ['status'], { encoding: 'utf8' }).startsWith('kannel: up');
  if (!running) execFileSync(KANNEL_SH, ['start'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const settings = Object.fromEntries(
    execFileSync(KANNEL_SH, ['settings'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s).slice(0, 2)),
  ) as unknown as KannelSettings;
  return { settings, stop: () => (running ? undefined : void execFileSync(KANNEL_SH, ['stop'], { stdio: 'ignore' })) };
}

/** A port nothing listens on (fetch refuses "bad ports" such as 9, so not those). */
export const closedPort = freePort;
