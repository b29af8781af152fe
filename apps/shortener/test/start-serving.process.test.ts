import { startAppProcess, type AppProcess } from '@feedback/dev-stack';
import { ensureTopics } from '@feedback/kit-kafka';
import { afterAll, describe, expect, it } from 'vitest';
import { dropDatabase, kafka, startShortener, uniq, untilAnswering } from './stack.js';

// A shortener restarted after a crash must serve at once. Its click consumer cannot join the group
// until the killed member's session (60 s here) expires; that wait happens in the background.
describe('a restarted shortener', () => {
  const children: AppProcess[] = [];
  const dbName = uniq('shortener_start').replace('-', '_');
  afterAll(async () => {
    for (const c of children) await c.kill('SIGKILL');
    await dropDatabase(dbName);
  });

  it('serves gRPC within seconds while its click consumer still waits to join', async () => {
    const topic = uniq('link.clicked');
    const groupId = uniq('clicks');
    await ensureTopics(kafka, [{ topic, numPartitions: 3 }]);
    const member = startAppProcess('shortener', { LOG_LEVEL: 'warn' }, ['test/fixtures/group-member.ts', topic, groupId]);
    children.push(member);
    await member.waitUntil('the doomed member to join', () => member.output().includes('joined'), 40_000);
    await member.kill('SIGKILL');
    const killedAt = Date.now();

    const service = await startShortener({ LOG_LEVEL: 'warn', MONGO_DB: dbName, CLICKS_TOPIC: topic, CLICKS_GROUP: groupId });
    children.push(service);
    try {
      await untilAnswering(service, 55_000);
      // Before the dead member's session (60 s) expired, so before the consumer could join;
      // the margin absorbs a slow start (database, tsx) on a busy machine.
      expect(Date.now() - killedAt).toBeLessThan(55_000);
    } finally {
      const stopping = Date.now();
      await service.kill('SIGTERM');
      // Stopping while the consumer still waits to join does not wait for the join either.
      expect(Date.now() - stopping).toBeLessThan(10_000);
    }
  }, 150_000);
});
