import { randomBytes, randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createKafka } from '@feedback/kit-kafka';
import { connectMongo, ensureIndexes, type MongoHandle } from '@feedback/kit-stores';
import { webhooksIndexes } from '../src/adapters/mongo/indexes.js';
import { webhooksSecretCipher } from '../src/wiring.js';

/** Against the running local stack; never a mock. */
export const stack = readStackFile();
export const logger = createLogger('webhooks-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'webhooks-test', logger });
export const uniq = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
export const testCipher = () => webhooksSecretCipher(randomBytes(32));

/** Polls until the condition holds; fails naming `what` after the timeout. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A database of its own for a test, with the service's indexes. */
export async function openTestDb(): Promise<MongoHandle> {
  const mongo = await connectMongo({ url: stack.mongo_url, dbName: uniq('webhooks_test').replace('-', '_'), logger });
  await ensureIndexes(mongo.db, webhooksIndexes);
  return mongo;
}

export async function dropTestDb(mongo: MongoHandle | undefined): Promise<void> {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
}
