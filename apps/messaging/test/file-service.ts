import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { callMetadata, statusToAppError } from '@feedback/kit-grpc';
import type { File, FileServiceClient } from '@feedback/proto/feedback/file/v1/file';
import type { Admin } from 'kafkajs';
import { readStackFile } from '@feedback/dev-stack';

/** The stack's file service (infra/ports.json FILE_GRPC_PORT) and the topic it publishes uploads on. */
export const FILE_GRPC_ADDR = readStackFile().grpc.file;
export const FILE_UPLOADED_TOPIC = 'file.uploaded';

/** A client-streaming upload as the gateway makes it: metadata, the bytes, the trailer that completes it. */
export function uploadFile(
  client: FileServiceClient,
  meta: { accountId: string; directoryId: string; filename: string },
  bytes: Buffer,
): Promise<File> {
  let call!: ReturnType<FileServiceClient['uploadFile']>;
  const result = new Promise<File>((resolve, reject) => {
    call = client.uploadFile(callMetadata({ requestId: randomUUID() }), { deadline: Date.now() + 30_000 }, (err, res) =>
      err ? reject(statusToAppError(err)) : resolve(res.file!),
    );
  });
  void (async () => {
    call.write({ metadata: { ...meta, originalFilename: meta.filename, contentType: 'text/csv', userId: 'messaging-test' } });
    if (!call.write({ chunk: bytes })) await once(call, 'drain');
    call.write({ trailer: { filename: '' } });
    call.end();
  })();
  return result;
}

/** Where each partition of a topic ends now. */
export async function topicEnds(admin: Admin, topic: string): Promise<{ partition: number; offset: string }[]> {
  return (await admin.fetchTopicOffsets(topic)).map((p) => ({ partition: p.partition, offset: p.high }));
}

/** Whether the group has committed at least `ends` on every partition. */
export async function caughtUp(
  admin: Admin,
  groupId: string,
  topic: string,
  ends: { partition: number; offset: string }[],
): Promise<boolean> {
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return ends.every((e) => {
    const c = committed?.partitions.find((p) => p.partition === e.partition);
    return c !== undefined && BigInt(c.offset === '-1' ? -1 : c.offset) >= BigInt(e.offset);
  });
}
