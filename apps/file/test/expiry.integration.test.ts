import { FileExpired } from '@feedback/proto/feedback/file/v1/file';
import { runConsumer, type ConsumedMessage, type ConsumerHandle } from '@feedback/kit-kafka';
import { statusToAppError } from '@feedback/kit-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMaintenance } from '../src/jobs/maintenance.job.js';
import { kafka, logger, objectKeys, startFileService, uniq, upload, waitFor, type TestFileService } from './stack.js';

const RETENTION_MS = 1_500;

// Two maintenance jobs (as two replicas run them) over one database, bucket and topic.
describe('file expiry with two replicas', () => {
  let a: TestFileService;
  let b: TestFileService;
  let consumer: ConsumerHandle;
  const events: ConsumedMessage[] = [];

  beforeAll(async () => {
    a = await startFileService({ retentionMs: RETENTION_MS });
    // The second replica shares the first one's database, bucket and topics.
    b = await startFileService({ retentionMs: RETENTION_MS, dbName: a.mongo.db.databaseName, bucket: a.bucket });
    b.deps.events = a.deps.events;
    consumer = await runConsumer({
      kafka,
      logger,
      groupId: uniq('g'),
      topics: [a.topics.expired],
      fromBeginning: true,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      handler: async (msg) => void events.push(msg),
    });
  });
  afterAll(async () => {
    await consumer?.stop();
    await b?.client.close();
    await b?.server.shutdown();
    await b?.producer.disconnect();
    await b?.mongo.close();
    await a?.close();
  });

  it('expires each file once: bytes removed, expired_at set, one file.expired event per file', async () => {
    const account = uniq('acc');
    const dir = (await a.client.createDirectory({ accountId: account, name: 'inbox' })).directory!;
    const files = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        upload(a.client.raw, { accountId: account, directoryId: dir.id, filename: `f${i}.csv` }, [Buffer.from(`row ${i}`)]),
      ),
    );
    expect(await objectKeys(a.s3, a.bucket, `${account}/`)).toHaveLength(6);

    const opts = { intervalMs: 100, leaseMs: 30_000, batch: 2, staleUploadMs: 6 * 3600_000 };
    const jobs = [startMaintenance(a.deps, { ...opts, holder: 'replica-a' }), startMaintenance(b.deps, { ...opts, holder: 'replica-b' })];
    try {
      await waitFor('every file expired', async () => {
        const listed = (await a.client.listFiles({ accountId: account, directoryId: dir.id })).files;
        return listed.every((f) => f.expiredAt !== undefined);
      });
      await waitFor('six file.expired events', () => events.filter((e) => files.some((f) => f.id === e.key)).length >= 6);
      await new Promise((r) => setTimeout(r, 1_500)); // room for a duplicate to show up
    } finally {
      await Promise.all(jobs.map((j) => j.close()));
    }

    const mine = events.filter((e) => files.some((f) => f.id === e.key));
    expect(mine.map((e) => e.eventId).sort()).toEqual(files.map((f) => `file.expired:${f.id}`).sort());
    const listed = (await a.client.listFiles({ accountId: account, directoryId: dir.id })).files;
    for (const e of mine) {
      const payload = FileExpired.decode(e.value);
      const entry = listed.find((f) => f.id === payload.fileId)!;
      expect(payload).toMatchObject({ accountId: account, directoryId: dir.id, filename: entry.filename, expiredAt: entry.expiredAt });
    }
    expect(await objectKeys(a.s3, a.bucket, `${account}/`)).toEqual([]);

    const read = a.client.raw.readBlob({ blobToken: files[0]!.blobToken, infoOnly: false });
    const err = await (async () => {
      for await (const _m of read) void _m;
    })().catch((e: unknown) => statusToAppError(e as never));
    expect(err).toMatchObject({ kind: 'gone', code: 13006 });
  });
});
