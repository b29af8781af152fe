import { createGrpcClient, type GrpcClient, type RunningGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, type ConsumerHandle, type Producer } from '@feedback/kit-kafka';
import { connectMongo, ensureIndexes, type MongoHandle } from '@feedback/kit-stores';
import { FileServiceClient, ProcessingState } from '@feedback/proto/feedback/file/v1/file';
import type { MessagingServiceClient } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePorts } from '../src/csv-workflow/adapters/grpc/file.client.js';
import { runFileUploadedConsumer } from '../src/csv-workflow/adapters/kafka/file-uploaded.consumer.js';
import { messagingIndexes } from '../src/shared/adapters/mongo/indexes.js';
import type { CsvWorkflowDeps } from '../src/csv-workflow/ports.js';
import type { MessagingFeatures } from '../src/features.js';
import { messagingDeps } from '../src/wiring.js';
import { noClicks, noLinkStates } from './fakes/memory-deps.js';
import { caughtUp, FILE_GRPC_ADDR, FILE_UPLOADED_TOPIC, topicEnds, uploadFile } from './file-service.js';
import { logger, serveMessaging, stack, testSensitive, uniq, waitFor } from './stack.js';

/*
 * The CSV workflow (docs/api.md "Workflows on files") end to end on the running stack: its file service (:50054) stores the uploads and
 * publishes file.uploaded on its Kafka topic; this test's messaging (own database, own consumer
 * group) binds a directory and consumes those events. Survey and shortener are not involved:
 * nothing is dispatched here.
 */
describe('CSV workflow against the stack file service, Kafka and MongoDB', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-csv-test', logger });
  const topics = { dispatch: uniq('sms.dispatch'), status: uniq('sms.status'), completed: uniq('sharing.completed') };
  const account = uniq('acc');
  let mongo: MongoHandle;
  let producer: Producer;
  let admin: Admin;
  let files: GrpcClient<FileServiceClient>;
  let server: RunningGrpcServer;
  let client: GrpcClient<MessagingServiceClient>;
  let features: MessagingFeatures;
  let deps: CsvWorkflowDeps;
  let campaignId: string;
  const consumers: ConsumerHandle[] = [];

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName: uniq('messaging_csv_test'), logger });
    await ensureIndexes(mongo.db, messagingIndexes);
    await ensureTopics(kafka, [{ topic: topics.dispatch }, { topic: topics.status }, { topic: topics.completed }]);
    producer = createProducer(kafka, { logger });
    await producer.connect();
    admin = kafka.admin();
    await admin.connect();
    files = createGrpcClient(FileServiceClient, FILE_GRPC_ADDR, { deadlineMs: 10_000 });
    features = messagingDeps({
      db: mongo.db,
      sensitive: testSensitive,
      producer,
      topics,
      survey: { createSmsChannel: async () => 'channel-1', activateMany: async () => [], statesOf: noLinkStates },
      shortener: { shortenMany: async () => [], countClicked: noClicks },
      files: filePorts(files),
      settings: { defaultRegion: 'TR', maxPhones: 100, defaultSendWindow: null },
      logger,
    });
    deps = features.csvWorkflow;
    ({ server, client } = await serveMessaging(features));
    const { campaign } = await client.createSmsCampaign({
      accountId: account,
      name: 'CSV',
      nodeId: 'node-1',
      nodeName: 'n',
      flowId: 'flow-1',
      messageTemplate: 'Merhaba {{name}} {{link}}',
      linkTtlDays: 0,
      reminders: [],
      transliterate: false,
    });
    campaignId = campaign!.id;
  });
  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await admin?.disconnect();
    client?.close();
    await server?.shutdown();
    files?.close();
    await producer?.disconnect();
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  /** A consumer group that starts where the topic ends now, so it sees only what the test uploads next. */
  async function groupAtTheEnd() {
    const groupId = uniq('messaging-csv-test');
    await admin.setOffsets({ groupId, topic: FILE_UPLOADED_TOPIC, partitions: await topicEnds(admin, FILE_UPLOADED_TOPIC) });
    return groupId;
  }

  /** Runs the consumer until `fileId` is imported and every event published by then is handled. */
  async function consumeUntilImported(groupId: string, fileId: string) {
    consumers.push(await runFileUploadedConsumer({ kafka, topic: FILE_UPLOADED_TOPIC, groupId, deps, logger, retryBackoffMs: 100 }));
    await waitFor(`the import of ${fileId}`, async () => (await deps.imports.findByFile(fileId)) !== null, 45_000);
    const ends = await topicEnds(admin, FILE_UPLOADED_TOPIC);
    await waitFor('the consumer to handle every upload', () => caughtUp(admin, groupId, FILE_UPLOADED_TOPIC, ends), 30_000);
  }

  const states = async (directoryId: string) =>
    Object.fromEntries((await files.listFiles({ accountId: account, directoryId })).files.map((f) => [f.id, f.processingState]));

  it('binds a directory; two uploads of the bound name before the consumer runs make one sharing from the latest only', async () => {
    const dir = (await files.createDirectory({ accountId: account, name: uniq('crm') })).directory!;
    const { binding } = await client.bindDirectory({ accountId: account, campaignId, directoryId: dir.id, fileName: '' });
    expect(binding).toMatchObject({ accountId: account, campaignId, directoryId: dir.id, fileName: 'customers.csv' });

    const groupId = await groupAtTheEnd();
    const older = await uploadFile(
      files.raw,
      { accountId: account, directoryId: dir.id, filename: 'customers.csv' },
      Buffer.from('phone,name\n05551112233,Old\n'),
    );
    await new Promise((r) => setTimeout(r, 5));
    const latest = await uploadFile(
      files.raw,
      { accountId: account, directoryId: dir.id, filename: 'customers.csv' },
      Buffer.from('phone,name,tier\n+90 532 123 45 67,Ayşe,gold\n05441234567,Zeynep\n05301234567,Ali,silver\nnope,X,y\n'),
    );
    const unbound = await uploadFile(
      files.raw,
      { accountId: account, directoryId: dir.id, filename: 'other.csv' },
      Buffer.from('phone\n05321234567\n'),
    );

    await consumeUntilImported(groupId, latest.id);

    const done = await deps.imports.findByFile(latest.id);
    expect(done).toMatchObject({ outcome: 'processed', campaignId, rows: 4, accepted: 2, rejected: 2, superseded: 1, reason: null });
    expect(await deps.imports.findByFile(older.id)).toBeNull();
    expect(await states(dir.id)).toEqual({
      [older.id]: ProcessingState.PROCESSING_STATE_SUPERSEDED,
      [latest.id]: ProcessingState.PROCESSING_STATE_PROCESSED,
      [unbound.id]: ProcessingState.PROCESSING_STATE_UNPROCESSED,
    });

    const sharing = await client.getSmsSharing({ accountId: account, sharingId: done!.sharingId! });
    expect(sharing).toMatchObject({ campaignId, accepted: 2 });
    expect(sharing.recipients.map((r) => r.phone).sort()).toEqual(['905301234567', '905321234567']);
    expect(sharing.rejectedPhones).toEqual([
      { phone: '05441234567', reason: 'wrong_column_count: expected 3, got 2', row: 3 },
      { phone: 'nope', reason: 'not_a_number', row: 5 },
    ]);
    expect(await mongo.db.collection('sharings').countDocuments()).toBe(1);
    const [chunk] = await mongo.db.collection('sharing_recipients').find().toArray();
    expect(chunk!.recipients.find((r: { phone: string }) => r.phone === '905321234567')).toMatchObject({
      attributes: { name: 'Ayşe', tier: 'gold' },
    });
  });

  it('completes a file without a valid row as failed, with the reason, and makes no sharing', async () => {
    const dir = (await files.createDirectory({ accountId: account, name: uniq('crm') })).directory!;
    await client.bindDirectory({ accountId: account, campaignId, directoryId: dir.id, fileName: 'list.csv' });
    const groupId = await groupAtTheEnd();
    const bad = await uploadFile(
      files.raw,
      { accountId: account, directoryId: dir.id, filename: 'list.csv' },
      Buffer.from('phone;name\n12;A\n;B\n'),
    );
    await consumeUntilImported(groupId, bad.id);
    expect(await deps.imports.findByFile(bad.id)).toMatchObject({
      outcome: 'failed',
      sharingId: null,
      rows: 2,
      reason: 'none of the 2 rows is valid (first: line 2, too_short)',
    });
    expect(await states(dir.id)).toEqual({ [bad.id]: ProcessingState.PROCESSING_STATE_FAILED });
  });

  it('lists a campaign’s bindings newest first and unbinds one: an upload of the unbound name is left unprocessed', async () => {
    // Campaigns of their own: the other tests bind directories to the shared one.
    const newCampaign = async (name: string) =>
      (
        await client.createSmsCampaign({
          accountId: account,
          name,
          nodeId: 'node-1',
          nodeName: 'n',
          flowId: 'flow-1',
          messageTemplate: '{{link}}',
          linkTtlDays: 0,
          reminders: [],
          transliterate: false,
        })
      ).campaign!.id;
    const [campaignId, other] = [await newCampaign('Listed'), await newCampaign('Other')];
    const [unbound, kept, moved] = await Promise.all(
      [1, 2, 3].map(async () => (await files.createDirectory({ accountId: account, name: uniq('crm') })).directory!),
    );
    await client.bindDirectory({ accountId: account, campaignId, directoryId: unbound!.id, fileName: '' });
    await client.bindDirectory({ accountId: account, campaignId, directoryId: kept!.id, fileName: 'list.csv' });
    await client.bindDirectory({ accountId: account, campaignId, directoryId: moved!.id, fileName: '' });
    // Bound again to the other campaign: it leaves this campaign's list.
    await client.bindDirectory({ accountId: account, campaignId: other, directoryId: moved!.id, fileName: '' });
    const listed = async (id: string) => (await client.listDirectoryBindings({ accountId: account, campaignId: id })).bindings;
    expect((await listed(campaignId)).map((b) => [b.directoryId, b.fileName])).toEqual([
      [kept!.id, 'list.csv'],
      [unbound!.id, 'customers.csv'],
    ]);
    expect((await listed(other)).map((b) => b.directoryId)).toEqual([moved!.id]);
    await expect(client.listDirectoryBindings({ accountId: uniq('other'), campaignId })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { campaign_id: campaignId },
    });

    const unbind = { accountId: account, campaignId, directoryId: unbound!.id, fileName: '' };
    await expect(client.unbindDirectory({ ...unbind, campaignId: other })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { directory_id: unbound!.id },
    });
    await expect(client.unbindDirectory({ ...unbind, accountId: uniq('other') })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { campaign_id: campaignId },
    });
    expect(await client.unbindDirectory(unbind)).toEqual({});
    await expect(client.unbindDirectory(unbind)).rejects.toMatchObject({ kind: 'not_found', fields: { directory_id: unbound!.id } });
    expect((await listed(campaignId)).map((b) => b.directoryId)).toEqual([kept!.id]);

    const groupId = await groupAtTheEnd();
    const ignored = await uploadFile(
      files.raw,
      { accountId: account, directoryId: unbound!.id, filename: 'customers.csv' },
      Buffer.from('phone\n05321234567\n'),
    );
    const imported = await uploadFile(
      files.raw,
      { accountId: account, directoryId: kept!.id, filename: 'list.csv' },
      Buffer.from('phone\n05321234568\n'),
    );
    await consumeUntilImported(groupId, imported.id);
    expect(await deps.imports.findByFile(imported.id)).toMatchObject({ outcome: 'processed', campaignId, accepted: 1 });
    expect(await deps.imports.findByFile(ignored.id)).toBeNull();
    expect(await states(unbound!.id)).toEqual({ [ignored.id]: ProcessingState.PROCESSING_STATE_UNPROCESSED });
  });

  it('binds only the account’s own campaign and directory', async () => {
    const dir = (await files.createDirectory({ accountId: account, name: uniq('crm') })).directory!;
    await expect(client.bindDirectory({ accountId: uniq('other'), campaignId, directoryId: dir.id, fileName: '' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    const foreign = (await files.createDirectory({ accountId: uniq('other'), name: uniq('crm') })).directory!;
    await expect(client.bindDirectory({ accountId: account, campaignId, directoryId: foreign.id, fileName: '' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { directory_id: foreign.id },
    });
    await expect(client.bindDirectory({ accountId: account, campaignId, directoryId: dir.id, fileName: '../x.csv' })).rejects.toMatchObject(
      { kind: 'invalid' },
    );
  });
});
