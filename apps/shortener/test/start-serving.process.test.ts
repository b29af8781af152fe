import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '@feedback/dev-stack';
import { AppError } from '@feedback/kit-core';
import { ensureTopics } from '@feedback/kit-kafka';
import { createGrpcClient } from '@feedback/kit-grpc';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { kafka, stack, uniq, waitFor } from './stack.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

function tsx(args: string[], env: Record<string, string> = {}): { child: ChildProcess; out: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => void (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => void (out += b.toString()));
  return { child, out: () => out };
}

async function kill(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

// A shortener restarted after a crash must serve at once. Its click consumer cannot join the group
// until the killed member's session (60 s here) expires; that wait happens in the background.
describe('a restarted shortener', () => {
  const children: ChildProcess[] = [];
  const dbName = uniq('shortener_start').replace('-', '_');
  afterAll(async () => {
    for (const c of children) await kill(c, 'SIGKILL');
    const mongo = new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 });
    await mongo
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
  });

  it('serves gRPC within seconds while its click consumer still waits to join', async () => {
    const topic = uniq('link.clicked');
    const groupId = uniq('clicks');
    await ensureTopics(kafka, [{ topic, numPartitions: 3 }]);
    const member = tsx(['test/fixtures/group-member.ts', topic, groupId]);
    children.push(member.child);
    await waitFor('the doomed member to join', () => member.out().includes('joined'), 40_000);
    await kill(member.child, 'SIGKILL');
    const killedAt = Date.now();

    const port = await freePort();
    const service = tsx(['src/main.ts'], {
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      // Its own metrics listener: the stack's shortener has the default port.
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(await freePort()),
      MONGO_URL: stack.mongo_url,
      MONGO_DB: dbName,
      KAFKA_BROKERS: stack.kafka_brokers.join(','),
      CLICKS_TOPIC: topic,
      CLICKS_GROUP: groupId,
    });
    children.push(service.child);
    const client = createGrpcClient(ShortenerServiceClient, `127.0.0.1:${port}`, { deadlineMs: 1_000 });
    try {
      await waitFor(
        'the shortener to answer',
        async () => {
          if (service.child.exitCode !== null) throw new Error(`shortener exited:\n${service.out()}`);
          const err: unknown = await client.resolve({ code: 'Nope123' }).catch((e: unknown) => e);
          return err instanceof AppError && err.kind === 'not_found';
        },
        55_000,
      );
      // Before the dead member's session (60 s) expired, so before the consumer could join;
      // the margin absorbs a slow start (database, tsx) on a busy machine.
      expect(Date.now() - killedAt).toBeLessThan(55_000);
    } finally {
      client.close();
      const stopping = Date.now();
      await kill(service.child, 'SIGTERM');
      // Stopping while the consumer still waits to join does not wait for the join either.
      expect(Date.now() - stopping).toBeLessThan(10_000);
    }
  }, 150_000);
});
