import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createKafka, ensureTopics } from '@feedback/kit-kafka';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { logger, stack, uniq, waitFor } from './stack.js';
import { freePort, processEnv, startMessagingProcess, type MessagingProcess } from './messaging-process.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

// A messaging service restarted after a crash must take sharings at once. Its dispatch consumer
// cannot join the group until the killed member's session (60 s here) expires; that wait
// happens in the background (found by the fault tests: 37 s of 503s on the SMS routes).
describe('a restarted messaging service', () => {
  const dbName = uniq('messaging_start');
  let member: ChildProcess | undefined;
  let proc: MessagingProcess | undefined;
  afterAll(async () => {
    if (member && member.exitCode === null && member.signalCode === null) member.kill('SIGKILL');
    await proc?.kill('SIGKILL');
    const mongo = new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 });
    await mongo
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
  });

  it('serves gRPC within seconds while its dispatch consumer still waits to join', async () => {
    const topic = uniq('sms.dispatch');
    const groupId = uniq('dispatch');
    await ensureTopics(createKafka({ brokers: stack.kafka_brokers, clientId: 'start-serving-test', logger }), [
      { topic, numPartitions: 6 },
    ]);
    member = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/group-member.ts', topic, groupId], {
      cwd: APP_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    member.stdout!.on('data', (b: Buffer) => void (out += b.toString()));
    await waitFor('the doomed member to join', () => out.includes('joined'), 40_000);
    const exited = once(member, 'exit');
    member.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();

    // Ready = its gRPC port answers a call (startMessagingProcess), as infra/apps.sh waits for it.
    proc = await startMessagingProcess(
      {
        ...processEnv(dbName),
        SMS_DISPATCH_TOPIC: topic,
        SMS_DISPATCH_GROUP: groupId,
        GRPC_PORT: String(await freePort()),
        DLR_PORT: String(await freePort()),
      },
      75_000,
    );
    // Before the dead member's session (60 s) expired, so before the consumer could join; the
    // margin absorbs a slow start (database, tsx) on a busy machine.
    expect(Date.now() - killedAt).toBeLessThan(50_000);
    const stopping = Date.now();
    await proc.kill('SIGTERM');
    // Stopping while the consumer still waits to join does not wait for the join either.
    expect(Date.now() - stopping).toBeLessThan(10_000);
  }, 150_000);
});
