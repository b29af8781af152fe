import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoResponseRepository } from '../src/adapters/mongo/response.repository.js';
import type { SurveyResponse } from '../src/domain/response.js';
import { dropTestDb, openTestDb } from './stack.js';

const response = (id: string, answeredAt: string): SurveyResponse => ({
  id,
  accountId: 'acc',
  flowId: 'flow',
  channelId: 'ch',
  nodeId: 'node',
  customerId: 'cust',
  linkId: `link-${id}`,
  activation: 1,
  answers: [],
  builtInResponses: {},
  answeredAt: new Date(answeredAt),
});

// What the survey service's metrics listener reports as the survey.answered outbox
// (outbox_pending, outbox_oldest_age_seconds), read from the stack's MongoDB.
describe('the survey.answered outbox backlog', () => {
  let mongo: MongoHandle;
  beforeAll(async () => {
    mongo = await openTestDb();
  });
  afterAll(() => dropTestDb(mongo));

  it('counts the responses whose event is not confirmed and dates the oldest; published ones drop out', async () => {
    const responses = new MongoResponseRepository(mongo.db);
    expect(await responses.outboxBacklog()).toEqual({ pending: 0, oldest: null });
    await responses.insert(response('r2', '2026-11-25T10:00:05Z'));
    await responses.insert(response('r1', '2026-11-25T10:00:00Z'));
    await responses.insert(response('r3', '2026-11-25T10:00:09Z'));
    expect(await responses.outboxBacklog()).toEqual({ pending: 3, oldest: new Date('2026-11-25T10:00:00Z') });
    await responses.markPublished('r1');
    await responses.markPublished('r3');
    expect(await responses.outboxBacklog()).toEqual({ pending: 1, oldest: new Date('2026-11-25T10:00:05Z') });
  });
});
