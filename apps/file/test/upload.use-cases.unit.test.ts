import { Readable } from 'node:stream';
import type { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { createDirectory } from '../src/domain/directory.use-cases.js';
import { deleteFile, sweepObjects } from '../src/domain/file.use-cases.js';
import {
  republishUploads,
  UPLOAD_PUBLISH_WAIT_MS,
  UPLOAD_SWEEP_DELAY_MS,
  uploadFile,
  type UploadRequest,
} from '../src/domain/upload.use-cases.js';
import { memoryDeps } from './fakes/memory-deps.js';

async function setup() {
  const m = memoryDeps();
  const dir = await createDirectory(m.deps, 'acc-1', 'inbox');
  const req = (over: Partial<UploadRequest> = {}): UploadRequest => ({
    accountId: 'acc-1',
    directoryId: dir.id,
    filename: 'list.csv',
    originalFilename: '',
    contentType: '',
    userId: 'tok-1',
    ...over,
  });
  const body = (chunks: Array<string | Buffer>, trailer?: string) => ({
    bytes: Readable.from(chunks.map((c) => Buffer.from(c))),
    trailerFilename: () => trailer,
  });
  return { ...m, dir, req, body };
}

describe('uploadFile', () => {
  it('stores the bytes, then the entry with its sha256, and publishes file.uploaded', async () => {
    const { deps, state, req, body, dir } = await setup();
    const file = await uploadFile(deps, req(), body(['abc', 'def']));
    expect(file).toMatchObject({
      filename: 'list.csv',
      size: 6,
      directoryName: 'inbox',
      directoryId: dir.id,
      userId: 'tok-1',
      contentType: 'text/csv',
    });
    expect(file.sha256).toBe('bef57ec7f53a6d40beb640a780a639c83bc29ac8a9816f1fc6c5c6dcd93c4721');
    expect(state.objects.get(file.objectKey)?.toString()).toBe('abcdef');
    expect(state.published).toEqual([{ topic: 'uploaded', eventId: `file.uploaded:${file.id}`, file }]);
    expect(state.sweep.size).toBe(0);
    expect(state.outbox.size).toBe(0);
  });

  it('takes the filename sent after the bytes', async () => {
    const { deps, req, body } = await setup();
    expect((await uploadFile(deps, req({ filename: '' }), body(['x'], 'late.txt'))).filename).toBe('late.txt');
    const noName = await uploadFile(deps, req({ filename: '' }), body(['x'])).catch((e: AppError) => e);
    expect(noName).toMatchObject({ kind: 'invalid', fields: { filename: expect.any(String) } });
  });

  it('leaves neither entry nor object when the upload is too large, the name bad or the source fails', async () => {
    const { deps, state, req, body } = await setup();
    await expect(uploadFile(deps, req(), body(['x'.repeat(1025)]))).rejects.toMatchObject({ kind: 'too_large', code: 13004 });
    await expect(uploadFile(deps, req({ size: 5000 }), body(['x']))).rejects.toMatchObject({ kind: 'too_large' });
    await expect(uploadFile(deps, req({ filename: '..' }), body(['x']))).rejects.toMatchObject({ kind: 'invalid' });
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(uploadFile(deps, req(), { bytes: failing, trailerFilename: () => undefined })).rejects.toThrow('client went away');
    expect(state.files.size).toBe(0);
    expect(state.objects.size).toBe(0);
    expect(state.published).toEqual([]);
  });

  it('an insert stored although its answer was lost (the database went away) is a successful upload that keeps its object', async () => {
    const { deps, state, req, body } = await setup();
    const insert = deps.files.insert.bind(deps.files);
    deps.files.insert = async (f) => {
      await insert(f);
      throw new Error('connection 2 to 127.0.0.1:27017 closed');
    };
    const file = await uploadFile(deps, req(), body(['abc']));
    expect(state.files.get(file.id)).toEqual(file);
    expect(state.objects.get(file.objectKey)?.toString()).toBe('abc');
    expect(state.published.map((p) => p.eventId)).toEqual([`file.uploaded:${file.id}`]);
    expect(state.sweep.size).toBe(0);
  });

  it('an insert whose outcome cannot be learned fails but removes nothing: the sweep decides once the database answers', async () => {
    const { deps, state, req, body, advance } = await setup();
    const insert = deps.files.insert.bind(deps.files);
    const findAny = deps.files.findAny.bind(deps.files);
    let down = true;
    deps.files.insert = async (f) => {
      await insert(f);
      throw new Error('connection closed');
    };
    deps.files.findAny = async (id) => {
      if (down) throw new Error('server selection timed out');
      return findAny(id);
    };
    await expect(uploadFile(deps, req(), body(['abc']))).rejects.toThrow('connection closed');
    const [stored] = [...state.files.values()];
    expect(state.objects.get(stored!.objectKey)?.toString()).toBe('abc');
    down = false;
    advance(UPLOAD_SWEEP_DELAY_MS + 1);
    await sweepObjects(deps);
    expect(state.objects.get(stored!.objectKey)?.toString(), 'the entry owns its object').toBe('abc');
  });

  it('an insert that failed and was not stored removes the object and the outbox entry at once', async () => {
    const { deps, state, req, body } = await setup();
    deps.files.insert = async () => {
      throw new Error('E11000 duplicate key');
    };
    await expect(uploadFile(deps, req(), body(['abc']))).rejects.toThrow('E11000');
    expect(state.objects.size).toBe(0);
    expect(state.outbox.size).toBe(0);
    expect(state.published).toEqual([]);
  });

  it("answers not found for another account's directory", async () => {
    const { deps, req, body } = await setup();
    await expect(uploadFile(deps, req({ accountId: 'acc-2' }), body(['x']))).rejects.toMatchObject({
      kind: 'not_found',
      fields: { directory_id: expect.any(String) },
    });
  });

  it('retries an unpublished file.uploaded under the same event id', async () => {
    const { deps, state, req, body, advance } = await setup();
    let fail = true;
    const events = {
      ...deps.events,
      uploaded: async (f: Parameters<typeof deps.events.uploaded>[0]) =>
        fail ? Promise.reject(new Error('kafka down')) : deps.events.uploaded(f),
    };
    const file = await uploadFile({ ...deps, events }, req(), body(['x']));
    expect(state.outbox.has(file.id)).toBe(true);
    fail = false;
    advance(61_000);
    await republishUploads({ ...deps, events });
    expect(state.published.map((p) => p.eventId)).toEqual([`file.uploaded:${file.id}`]);
    expect(state.outbox.size).toBe(0);
  });
  // Found by the fault tests: with Kafka killed, uploads hung for over 30 s (the producer's retries).
  it('answers without waiting for a send that hangs (Kafka away): the event stays in the outbox', async () => {
    const { deps, state, req, body } = await setup();
    const events = { ...deps.events, uploaded: () => new Promise<never>(() => undefined) };
    const started = Date.now();
    const file = await uploadFile({ ...deps, events }, req(), body(['x']));
    expect(Date.now() - started).toBeLessThan(UPLOAD_PUBLISH_WAIT_MS + 1_000);
    expect(state.files.has(file.id)).toBe(true);
    expect(state.outbox.has(file.id)).toBe(true);
  });
});

describe('deleteFile', () => {
  it('removes entry and object, and a second delete answers not found', async () => {
    const { deps, state, req, body, dir } = await setup();
    const file = await uploadFile(deps, req(), body(['x']));
    await deleteFile(deps, 'acc-1', dir.id, file.id);
    expect(state.files.size).toBe(0);
    expect(state.objects.size).toBe(0);
    await expect(deleteFile(deps, 'acc-1', dir.id, file.id)).rejects.toMatchObject({
      kind: 'not_found',
      fields: { file_entry_id: file.id },
    });
  });

  it('leaves the object to the sweep when removing it fails, and the sweep removes it', async () => {
    const { deps, state, req, body, dir } = await setup();
    const file = await uploadFile(deps, req(), body(['x']));
    const broken = { ...deps, blobs: { ...deps.blobs, remove: () => Promise.reject(new Error('s3 down')) } };
    await deleteFile(broken, 'acc-1', dir.id, file.id);
    expect(state.objects.size).toBe(1);
    expect(await sweepObjects(deps)).toBe(1);
    expect(state.objects.size).toBe(0);
  });
});
