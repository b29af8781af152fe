import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@feedback/kit-core';
import type { ReadBlobRequest, ReadBlobResponse } from '@feedback/proto/feedback/file/v1/file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incompleteUploads, objectKeys, startFileService, uniq, upload, waitFor, type TestFileService } from './stack.js';

const MiB = 1024 * 1024;

async function readBlob(svc: TestFileService, req: Partial<ReadBlobRequest> & { blobToken: string }) {
  const messages: ReadBlobResponse[] = [];
  const call = svc.client.raw.readBlob({ infoOnly: false, ...req });
  try {
    for await (const m of call) messages.push(m as ReadBlobResponse);
  } catch (err) {
    const { statusToAppError } = await import('@feedback/kit-grpc');
    throw statusToAppError(err as never);
  }
  return { info: messages[0]?.info, bytes: Buffer.concat(messages.slice(1).map((m) => m.chunk!)) };
}

function* pieces(data: Buffer, size = 64 * 1024) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

// The file service's gRPC handlers on port 0 against the real MongoDB-compatible server, S3 and Kafka.
describe('FileService over gRPC', () => {
  let svc: TestFileService;
  const account = uniq('acc');
  let dirId: string;

  beforeAll(async () => {
    svc = await startFileService({ maxUploadBytes: 20 * MiB });
    dirId = (await svc.client.createDirectory({ accountId: account, name: 'inbox' })).directory!.id;
  });
  afterAll(() => svc?.close());

  it('keeps directory names unique per account, also under concurrent creates', async () => {
    const name = uniq('dir');
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => svc.client.createDirectory({ accountId: account, name })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(r.reason).toMatchObject({ kind: 'conflict', code: 13003, fields: { name: expect.any(String) } });
    }
    expect((await svc.client.createDirectory({ accountId: uniq('other'), name })).directory?.name).toBe(name);
    const list = await svc.client.listDirectories({ accountId: account });
    expect(list.directories.filter((d) => d.name === name)).toHaveLength(1);
  });

  it('streams an upload into S3 and serves it back whole, in ranges and as info only', async () => {
    const data = randomBytes(9 * MiB + 123); // a multipart upload: two parts
    const file = await upload(
      svc.client.raw,
      { accountId: account, directoryId: dirId, filename: 'data.bin', userId: 'tok-9' },
      pieces(data),
    );
    expect(file).toMatchObject({ filename: 'data.bin', size: data.length, directoryName: 'inbox', userId: 'tok-9' });
    expect(file.sha256).toBe(createHash('sha256').update(data).digest('hex'));
    expect(await objectKeys(svc.s3, svc.bucket, `${account}/`)).toEqual([`${account}/${file.id}`]);

    const whole = await readBlob(svc, { blobToken: file.blobToken });
    expect(whole.info).toMatchObject({ size: data.length, offset: 0, length: data.length, partial: false, sha256: file.sha256 });
    expect(whole.bytes.equals(data)).toBe(true);

    const range = await readBlob(svc, { blobToken: file.blobToken, first: 100, last: 199 });
    expect(range.info).toMatchObject({ offset: 100, length: 100, partial: true });
    expect(range.bytes.equals(data.subarray(100, 200))).toBe(true);
    const suffix = await readBlob(svc, { blobToken: file.blobToken, suffixLength: 10 });
    expect(suffix.bytes.equals(data.subarray(data.length - 10))).toBe(true);
    const outside = await readBlob(svc, { blobToken: file.blobToken, first: data.length });
    expect(outside.info?.rangeNotSatisfiable).toBe(true);
    const head = await readBlob(svc, { blobToken: file.blobToken, infoOnly: true });
    expect(head.info?.length).toBe(data.length);
    expect(head.bytes.length).toBe(0);
  });

  it('takes the filename from the trailer, and lists, shows and deletes entries', async () => {
    const dir = (await svc.client.createDirectory({ accountId: account, name: uniq('d') })).directory!;
    const a = await upload(
      svc.client.raw,
      { accountId: account, directoryId: dir.id, originalFilename: 'local.csv' },
      [Buffer.from('a,b\n')],
      { trailer: 'late name.csv' },
    );
    expect(a).toMatchObject({ filename: 'late name.csv', contentType: 'text/csv' });
    const b = await upload(svc.client.raw, { accountId: account, directoryId: dir.id, filename: 'b.txt' }, [Buffer.from('b')]);
    expect((await svc.client.listFiles({ accountId: account, directoryId: dir.id })).files.map((f) => f.id)).toEqual([b.id, a.id]);
    expect((await svc.client.getFile({ accountId: account, directoryId: dir.id, fileId: a.id })).file).toEqual(a);

    expect((await svc.client.deleteFile({ accountId: account, directoryId: dir.id, fileId: a.id })).file?.id).toBe(a.id);
    await expect(svc.client.getFile({ accountId: account, directoryId: dir.id, fileId: a.id })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(readBlob(svc, { blobToken: a.blobToken })).rejects.toMatchObject({ kind: 'not_found' });
    expect(await objectKeys(svc.s3, svc.bucket, `${account}/${a.id}`)).toEqual([]);
  });

  it("answers not found for another account's directory and file, as for unknown ones", async () => {
    const file = await upload(svc.client.raw, { accountId: account, directoryId: dirId, filename: 'mine.txt' }, [Buffer.from('x')]);
    const other = uniq('acc');
    await expect(svc.client.listFiles({ accountId: other, directoryId: dirId })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { directory_id: dirId },
    });
    await expect(svc.client.getFile({ accountId: other, directoryId: dirId, fileId: file.id })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(svc.client.deleteFile({ accountId: other, directoryId: dirId, fileId: file.id })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(upload(svc.client.raw, { accountId: other, directoryId: dirId, filename: 'x' }, [Buffer.from('x')])).rejects.toMatchObject(
      { kind: 'not_found' },
    );
    await expect(svc.client.listFiles({ accountId: account, directoryId: 'not-a-uuid' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  /** Nothing of the account's aborted uploads may remain: no object, no open multipart upload. */
  async function expectNothingStored(accountId: string) {
    await waitFor('aborted uploads to be cleaned up', async () =>
      (await incompleteUploads(svc.s3, svc.bucket)).every((k) => k !== '(aborting)' && !k.startsWith(`${accountId}/`)),
    );
    expect(await objectKeys(svc.s3, svc.bucket, `${accountId}/`)).toEqual([]);
  }

  it('refuses an upload over the limit and keeps nothing of it', async () => {
    const owner = uniq('acc');
    const dir = (await svc.client.createDirectory({ accountId: owner, name: 'big' })).directory!;
    const err = await upload(
      svc.client.raw,
      { accountId: owner, directoryId: dir.id, filename: 'big.bin' },
      pieces(randomBytes(21 * MiB)),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'too_large', code: 13004 });
    await expect(
      upload(svc.client.raw, { accountId: owner, directoryId: dir.id, filename: 'x', size: 21 * MiB }, []),
    ).rejects.toMatchObject({ kind: 'too_large' });
    expect((await svc.client.listFiles({ accountId: owner, directoryId: dir.id })).files).toEqual([]);
    await expectNothingStored(owner);
  });

  it('leaves no entry, no object and no open multipart upload when the client cancels midway', async () => {
    const owner = uniq('acc');
    const dir = (await svc.client.createDirectory({ accountId: owner, name: 'cancel' })).directory!;
    const abort = new AbortController();
    async function* slow() {
      for (let i = 0; i < 200; i++) {
        if (i === 150) abort.abort(); // after more than one 8 MiB part: a multipart upload is open
        yield randomBytes(64 * 1024);
        await new Promise((r) => setImmediate(r));
      }
    }
    const err = await upload(svc.client.raw, { accountId: owner, directoryId: dir.id, filename: 'partial.bin' }, slow(), {
      signal: abort.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    await waitFor(
      'no entry',
      async () => (await svc.client.listFiles({ accountId: owner, directoryId: dir.id })).files.length === 0,
      2_000,
    ).catch(() => undefined);
    expect((await svc.client.listFiles({ accountId: owner, directoryId: dir.id })).files).toEqual([]);
    await expectNothingStored(owner);
  });

  it('stores nothing for a stream that ends without its trailer', async () => {
    const owner = uniq('acc');
    const dir = (await svc.client.createDirectory({ accountId: owner, name: 'cut' })).directory!;
    const cut = new Promise((resolve, reject) => {
      const c = svc.client.raw.uploadFile((err, res) => (err ? reject(err) : resolve(res)));
      c.write({
        metadata: { accountId: owner, directoryId: dir.id, filename: 'cut.bin', originalFilename: '', contentType: '', userId: 't' },
      });
      c.write({ chunk: randomBytes(1000) });
      c.end();
    });
    await expect(cut).rejects.toMatchObject({ code: 3 });
    expect((await svc.client.listFiles({ accountId: owner, directoryId: dir.id })).files).toEqual([]);
    await expectNothingStored(owner);
  });

  it('refuses a stream without metadata first', async () => {
    const call = new Promise((resolve, reject) => {
      const c = svc.client.raw.uploadFile((err, res) => (err ? reject(err) : resolve(res)));
      c.write({ chunk: Buffer.from('x') });
      c.end();
    });
    await expect(call).rejects.toMatchObject({ code: 3 });
  });
});
