import { describe, expect, it } from 'vitest';
import { countScore, emptyTally, npsScore } from '../src/domain/nps.js';
import { npsSummary } from '../src/domain/nps.use-cases.js';
import { checkFilters, parseInstant } from '../src/domain/response-filters.js';
import type { SurveyResponse } from '../src/domain/response.js';
import { getResponse, listResponses } from '../src/domain/responses.use-cases.js';
import { memoryDeps, sampleFlow, uuid } from './fakes/memory-deps.js';

const none = { flowId: '', channelId: '', customerExternalId: '', since: '', until: '' };

function tally(...scores: number[]) {
  const t = emptyTally();
  for (const n of scores) countScore(t, n);
  return { ...t, score: npsScore(t) };
}

describe('NPS arithmetic', () => {
  it('counts 9-10 as promoters, 7-8 as passives, 0-6 as detractors', () => {
    expect(tally(0, 6, 7, 8, 9, 10)).toEqual({ promoters: 2, passives: 2, detractors: 2, total: 6, score: 0 });
  });

  it('scores % promoters - % detractors, rounded to an integer, halves away from zero', () => {
    expect(tally(10, 10, 10, 0).score).toBe(50);
    expect(tally(9, 9, 9, 9, 9, 9, 9, 9, 9, 9).score).toBe(100);
    expect(tally(3, 3).score).toBe(-100);
    // 1 promoter of 8: 12.5 → 13, and its mirror -12.5 → -13.
    expect(tally(9, 7, 7, 7, 7, 7, 7, 7).score).toBe(13);
    expect(tally(1, 7, 7, 7, 7, 7, 7, 7).score).toBe(-13);
    // 2 of 3 promoters, 1 detractor: 33.33 → 33.
    expect(tally(10, 10, 0).score).toBe(33);
  });

  it('has no score without answers, and ignores values off the scale', () => {
    expect(tally()).toEqual({ promoters: 0, passives: 0, detractors: 0, total: 0, score: null });
    expect(tally(11, -1, 5.5).total).toBe(0);
  });
});

describe('response filters', () => {
  it('takes ISO dates and date-times with an offset', () => {
    expect(parseInstant('2026-11-22')).toEqual(new Date('2026-11-22T00:00:00.000Z'));
    expect(parseInstant('2026-11-22T12:30:00+03:00')).toEqual(new Date('2026-11-22T09:30:00.000Z'));
    expect(parseInstant('2026-11-22T12:30:00.123+0300')).toEqual(new Date('2026-11-22T09:30:00.123Z'));
    expect(parseInstant('2026-11-22T09:30Z')).toEqual(new Date('2026-11-22T09:30:00.000Z'));
  });

  it('refuses what is not an instant', () => {
    for (const bad of ['yesterday', '2026-11-22T09:30:00', '2026-02-30', '2026-13-01', '22.11.2026', '1969-12-31', '2026-11-22 09:30Z'])
      expect(typeof parseInstant(bad), bad).toBe('string');
  });

  it('names every bad field at once', () => {
    expect(() => checkFilters({ ...none, channelId: 'nope', since: 'x', customerExternalId: 'e'.repeat(201) })).toThrow(
      expect.objectContaining({
        kind: 'invalid',
        fields: { channel_id: expect.any(String), since: expect.any(String), customer_external_id: expect.any(String) },
      }),
    );
    expect(() => checkFilters({ ...none, since: '2026-11-23', until: '2026-11-22' })).toThrow(
      expect.objectContaining({ fields: { since: 'must not be after until' } }),
    );
    expect(checkFilters({ ...none, since: '2026-11-22', until: '2026-11-22' })).toMatchObject({ since: expect.any(Date) });
  });
});

/** An account with a flow, two channels of it, a channel of another flow, two customers and responses a second apart. */
function seeded() {
  const d = memoryDeps();
  const flow = sampleFlow('acc');
  const other = sampleFlow('acc');
  d.flows.items.push(flow, other);
  const channel = (flowId: string) => {
    const c = {
      id: uuid(),
      accountId: 'acc',
      name: 'c',
      nodeId: 'n',
      nodeName: 'N',
      flowId,
      flowName: 'F',
      linkTtlDays: 7,
      kind: 'link' as const,
      createdAt: new Date(),
    };
    d.channels.items.push(c);
    return c.id;
  };
  const [web, sms, otherChannel] = [channel(flow.id), channel(flow.id), channel(other.id)];
  const customer = (externalId: string, extra: { email?: string; phone?: string } = {}) => {
    const c = {
      id: uuid(),
      accountId: 'acc',
      externalId,
      ...extra,
      schema: {},
      attributes: {},
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    d.customers.items.push(c);
    return c.id;
  };
  const ada = customer('C-1', { email: 'ada@example.com', phone: '905321234567' });
  const bob = customer('C-2');
  let t = Date.parse('2026-11-22T09:00:00.000Z');
  const respond = (channelId: string, customerId: string, nps: number, flowId = flow.id) => {
    const r: SurveyResponse = {
      id: uuid(),
      accountId: 'acc',
      flowId,
      channelId,
      nodeId: 'n',
      customerId,
      linkId: uuid(),
      activation: 1,
      answers: [
        { questionKey: 'nps', optionKeys: [], number: nps },
        { questionKey: 'multi', optionKeys: ['x', 'z'] },
      ],
      builtInResponses: {},
      answeredAt: new Date((t += 1000)),
    };
    d.responses.items.push({ ...r, pending: false });
    return r.id;
  };
  return { d, flow, other, web, sms, otherChannel, ada, bob, respond };
}

describe('listing responses with filters', () => {
  const list = (d: ReturnType<typeof seeded>['d'], q: Partial<typeof none> & { pageSize?: number; pageToken?: string } = {}) =>
    listResponses(d, { accountId: 'acc', ...none, pageSize: 0, pageToken: '', ...q });

  it('narrows by channel, customer and a half-open answered_at range, newest first, with the customer', async () => {
    const { d, flow, web, sms, ada, bob, respond } = seeded();
    const ids = [respond(web, ada, 10), respond(sms, bob, 3), respond(web, bob, 8), respond(web, ada, 9)];
    const ofChannel = await list(d, { channelId: web });
    expect(ofChannel.responses.map((r) => r.response.id)).toEqual([ids[3], ids[2], ids[0]]);
    const ofAda = await list(d, { customerExternalId: 'C-1', flowId: flow.id });
    expect(ofAda.responses.map((r) => r.response.id)).toEqual([ids[3], ids[0]]);
    expect(ofAda.responses[0]!.customer).toEqual({ externalId: 'C-1', email: 'ada@example.com', phone: '905321234567' });
    // since inclusive, until exclusive: the 2nd and 3rd answers (at :02 and :03).
    const range = await list(d, { since: '2026-11-22T09:00:02Z', until: '2026-11-22T12:00:04+03:00' });
    expect(range.responses.map((r) => r.response.id)).toEqual([ids[2], ids[1]]);
  });

  it('pages within the filters, the page token and until bounding the page together', async () => {
    const { d, web, ada, respond } = seeded();
    const ids = Array.from({ length: 5 }, (_, i) => respond(web, ada, i));
    const q = { channelId: web, until: '2026-11-22T09:00:05Z', pageSize: 2 };
    const first = await list(d, q);
    const second = await list(d, { ...q, pageToken: first.nextPageToken });
    expect([...first.responses, ...second.responses].map((r) => r.response.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(second.nextPageToken).toBe('');
  });

  it('selects nothing for an unknown customer or a channel of another flow; a foreign channel is not found', async () => {
    const { d, flow, web, otherChannel, ada, respond } = seeded();
    respond(web, ada, 9);
    expect((await list(d, { customerExternalId: 'nobody' })).responses).toEqual([]);
    expect((await list(d, { flowId: flow.id, channelId: otherChannel })).responses).toEqual([]);
    await expect(listResponses(d, { accountId: 'intruder', ...none, channelId: web, pageSize: 0, pageToken: '' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { channel_id: web },
    });
  });

  it('fetches one response of the account; another account or a malformed id is not found', async () => {
    const { d, web, bob, respond } = seeded();
    const id = respond(web, bob, 7);
    expect(await getResponse(d, 'acc', id.toUpperCase())).toMatchObject({ response: { id }, customer: { externalId: 'C-2' } });
    await expect(getResponse(d, 'intruder', id)).rejects.toMatchObject({ kind: 'not_found', fields: { response_id: id } });
    await expect(getResponse(d, 'acc', 'x')).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('the NPS summary', () => {
  it('tallies every nps question of the flow over the selected responses', async () => {
    const { d, flow, other, web, sms, otherChannel, ada, respond } = seeded();
    respond(web, ada, 10);
    respond(web, ada, 9);
    respond(web, ada, 0);
    respond(sms, ada, 7);
    respond(otherChannel, ada, 0, other.id);
    const q = { accountId: 'acc', flowId: flow.id, channelId: '', since: '', until: '' };
    expect(await npsSummary(d, q)).toEqual([{ questionKey: 'nps', promoters: 2, passives: 1, detractors: 1, total: 4, score: 25 }]);
    expect(await npsSummary(d, { ...q, channelId: web })).toEqual([
      { questionKey: 'nps', promoters: 2, passives: 0, detractors: 1, total: 3, score: 33 },
    ]);
    expect(await npsSummary(d, { ...q, since: '2026-11-23' })).toEqual([
      { questionKey: 'nps', promoters: 0, passives: 0, detractors: 0, total: 0, score: null },
    ]);
    expect((await npsSummary(d, { ...q, channelId: otherChannel }))[0]).toMatchObject({ total: 0 });
  });

  it("is not found for another account's flow or an unknown one", async () => {
    const { d, flow } = seeded();
    const q = { accountId: 'intruder', flowId: flow.id, channelId: '', since: '', until: '' };
    await expect(npsSummary(d, q)).rejects.toMatchObject({ kind: 'not_found', fields: { flow_id: flow.id } });
    await expect(npsSummary(d, { ...q, accountId: 'acc', flowId: 'nope' })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
