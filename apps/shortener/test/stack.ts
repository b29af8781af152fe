import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { freePort, privateErasureAndRetention, readStackFile, startAppProcess, type AppProcess } from '@feedback/dev-stack';
import { AppError } from '@feedback/kit-core';
import { createGrpcClient } from '@feedback/kit-grpc';
import { createKafka } from '@feedback/kit-kafka';
import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { MongoClient } from 'mongodb';

/** Against the running local stack (`infra/infra.sh up`); never a mock. */
export const stack = readStackFile();
export const logger = createLogger('shortener-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'shortener-test', logger });
export const uniq = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Polls until the condition holds; fails naming `what` after the timeout. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type ShortenerProcess = AppProcess & { address: string };

/**
 * A shortener from source (as infra/apps.sh starts it) on free ports, against the stack's MongoDB
 * and Kafka; `env` adds to that (its MONGO_DB, topic and group) or overrides it.
 */
export async function startShortener(env: Record<string, string>): Promise<ShortenerProcess> {
  const port = await freePort();
  const proc = startAppProcess('shortener', {
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(port),
    // Its own metrics listener: the stack's shortener has the default port.
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: String(await freePort()),
    MONGO_URL: stack.mongo_url,
    KAFKA_BROKERS: stack.kafka_brokers.join(','),
    ...privateErasureAndRetention().env,
    ...env,
  });
  return Object.assign(proc, { address: `127.0.0.1:${port}` });
}

/** Resolves once the shortener answers a Resolve (NOT_FOUND for an unknown code); throws if it exits first. */
export async function untilAnswering(shortener: ShortenerProcess, timeoutMs: number): Promise<void> {
  const client = createGrpcClient(ShortenerServiceClient, shortener.address, { deadlineMs: 1_000 });
  try {
    await shortener.waitUntil(
      `the shortener on ${shortener.address} to answer`,
      async () => {
        const err: unknown = await client.resolve({ code: 'Nope123' }).catch((e: unknown) => e);
        return err instanceof AppError && err.kind === 'not_found';
      },
      timeoutMs,
    );
  } finally {
    client.close();
  }
}

/** A database of its own for a test (no indexes: a test that needs them ensures them). */
export async function openTestDb(prefix: string): Promise<MongoHandle> {
  return connectMongo({ url: stack.mongo_url, dbName: uniq(prefix).replace('-', '_'), logger });
}

/** Drops what openTestDb made and closes it (a failed open leaves nothing to drop). */
export async function dropTestDb(mongo: MongoHandle | undefined): Promise<void> {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
}

/** Drops a database only a test's own processes opened, if it can. */
export async function dropDatabase(name: string): Promise<void> {
  const mongo = new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 });
  await mongo
    .db(name)
    .dropDatabase()
    .catch(() => undefined);
  await mongo.close();
}
