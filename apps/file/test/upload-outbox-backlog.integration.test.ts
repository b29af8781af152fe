import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoUploadOutbox } from '../src/adapters/mongo/outbox.repository.js';
import { dropTestDb, openTestDb } from './stack.js';

// What the file service's metrics listener reports as the file.uploaded outbox (outbox_pending,
// outbox_oldest_age_seconds), read from the stack's MongoDB.
describe('the file.uploaded outbox backlog', () => {
  let mongo: MongoHandle;
  beforeAll(async () => {
    mongo = await openTestDb();
  });
  afterAll(() => dropTestDb(mongo));

  it('counts the entries not confirmed published and dates the oldest', async () => {
    const outbox = new MongoUploadOutbox(mongo.db);
    expect(await outbox.backlog()).toEqual({ pending: 0, oldest: null });
    await outbox.add('f2', new Date('2026-11-25T10:00:05Z'));
    await outbox.add('f1', new Date('2026-11-25T10:00:00Z'));
    await outbox.add('f3', new Date('2026-11-25T10:00:09Z'));
    expect(await outbox.backlog()).toEqual({ pending: 3, oldest: new Date('2026-11-25T10:00:00Z') });
    await outbox.drop('f1');
    expect(await outbox.backlog()).toEqual({ pending: 2, oldest: new Date('2026-11-25T10:00:05Z') });
  });
});
