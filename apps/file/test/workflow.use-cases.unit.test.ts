import { Readable } from 'node:stream';
import type { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { claimLatestFile } from '../src/domain/claim.use-cases.js';
import { createDirectory } from '../src/domain/directory.use-cases.js';
import { getFile } from '../src/domain/file.use-cases.js';
import type { ProcessingReport } from '../src/domain/processing.js';
import { uploadFile } from '../src/domain/upload.use-cases.js';
import { recordProcessing, republishProcessed, setWorkflowBinding, SUPERSEDED_REASON } from '../src/domain/workflow.use-cases.js';
import { memoryDeps } from './fakes/memory-deps.js';

async function setup() {
  const m = memoryDeps();
  const dir = await createDirectory(m.deps, 'acc-1', 'sms');
  const upload = async (filename: string) => {
    const file = await uploadFile(
      m.deps,
      { accountId: 'acc-1', directoryId: dir.id, filename, originalFilename: '', contentType: '', userId: 't' },
      { bytes: Readable.from([Buffer.from('phone\n')]), trailerFilename: () => undefined },
    );
    m.advance(1000);
    return file;
  };
  const bind = (filename: string, bound = true) => setWorkflowBinding(m.deps, { accountId: 'acc-1', directoryId: dir.id, filename, bound });
  const processedEvents = () => m.state.published.filter((p) => p.topic === 'processed');
  return { ...m, dir, upload, bind, processedEvents };
}

const processed: ProcessingReport = {
  status: 'processed',
  sharingId: 'sharing-1',
  rows: 3,
  accepted: 2,
  rejected: 1,
  errors: [{ row: 4, reason: 'invalid_number' }],
  reason: null,
};

describe('the processing of a bound file name', () => {
  it('is pending from the upload for a bound name only, and absent once the name is unbound', async () => {
    const { deps, dir, upload, bind } = await setup();
    await bind('customers.csv');
    await bind('customers.csv'); // idempotent
    expect((await upload('customers.csv')).processing).toMatchObject({ status: 'pending', rows: 0, errors: [], sharingId: null });
    expect((await upload('other.csv')).processing).toBeNull();
    await bind('customers.csv', false);
    expect((await upload('customers.csv')).processing).toBeNull();
    expect((await deps.directories.findById('acc-1', dir.id))?.boundNames).toEqual([]);
  });

  it("refuses another account's directory as an unknown one", async () => {
    const { deps, dir } = await setup();
    const err = await setWorkflowBinding(deps, { accountId: 'acc-2', directoryId: dir.id, filename: 'a.csv', bound: true }).catch((e) => e);
    expect((err as AppError).kind).toBe('not_found');
  });

  it('stores the first outcome once, publishes file.processed once, and a repeat or a different report changes nothing', async () => {
    const { deps, dir, upload, bind, processedEvents, advance } = await setup();
    await bind('customers.csv');
    const file = await upload('customers.csv');
    const done = await recordProcessing(deps, 'acc-1', file.id, processed);
    expect(done.processing).toEqual({ ...processed, processedAt: expect.any(Date) });
    advance(5000);
    const again = await recordProcessing(deps, 'acc-1', file.id, processed);
    const other = await recordProcessing(deps, 'acc-1', file.id, { ...processed, status: 'failed', reason: 'late' });
    expect(again.processing).toEqual(done.processing);
    expect(other.processing).toEqual(done.processing);
    expect(processedEvents().map((p) => [p.eventId, p.file.processing?.status])).toEqual([[`file.processed:${file.id}`, 'processed']]);
    expect((await getFile(deps, 'acc-1', dir.id, file.id)).processing).toEqual(done.processing);
  });

  it('keeps at most 100 errors and refuses a pending report, a foreign file and bad counts', async () => {
    const { deps, upload, bind } = await setup();
    await bind('customers.csv');
    const file = await upload('customers.csv');
    const kind = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: AppError) => e.kind,
      );
    expect(await kind(recordProcessing(deps, 'acc-1', file.id, { ...processed, status: 'pending' }))).toBe('invalid');
    expect(await kind(recordProcessing(deps, 'acc-1', file.id, { ...processed, rows: -1 }))).toBe('invalid');
    expect(await kind(recordProcessing(deps, 'acc-2', file.id, processed))).toBe('not_found');
    const errors = Array.from({ length: 150 }, (_, i) => ({ row: i + 2, reason: 'empty' }));
    const done = await recordProcessing(deps, 'acc-1', file.id, { ...processed, rejected: 150, rows: 152, errors });
    expect(done.processing?.errors).toHaveLength(100);
    expect(done.processing?.errors[99]).toEqual({ row: 101, reason: 'empty' });
  });

  it('ends a superseded pending file failed, with the reason, when a newer one is claimed', async () => {
    const { deps, dir, upload, bind, processedEvents } = await setup();
    await bind('customers.csv');
    const older = await upload('customers.csv');
    const newer = await upload('customers.csv');
    const claim = await claimLatestFile(deps, 'acc-1', dir.id, 'customers.csv', 'sharing-2');
    expect(claim.file?.id).toBe(newer.id);
    expect((await getFile(deps, 'acc-1', dir.id, older.id)).processing).toMatchObject({ status: 'failed', reason: SUPERSEDED_REASON });
    expect((await getFile(deps, 'acc-1', dir.id, newer.id)).processing?.status).toBe('pending');
    expect(processedEvents().map((p) => p.file.id)).toEqual([older.id]);
  });

  it('sends a file.processed that did not go out later, under the same event id', async () => {
    const { deps, upload, bind, state, advance } = await setup();
    await bind('customers.csv');
    const file = await upload('customers.csv');
    const failing = { ...deps, events: { ...deps.events, processed: () => Promise.reject(new Error('kafka away')) } };
    await recordProcessing(failing, 'acc-1', file.id, processed);
    expect(state.processedDue.has(file.id)).toBe(true);
    expect(await republishProcessed(deps)).toBe(0); // too recent: the report's own try may still land
    advance(61_000);
    expect(await republishProcessed(deps)).toBe(1);
    expect(state.processedDue.size).toBe(0);
    expect(state.published.filter((p) => p.topic === 'processed').map((p) => p.eventId)).toEqual([`file.processed:${file.id}`]);
  });
});
