import { randomUUID } from 'node:crypto';
import { explainFinds } from '@feedback/dev-stack';
import { pageQueryOf } from '@feedback/kit-core';
import type { QuestionInput } from '@feedback/proto/feedback/flow/v1/flow';
import { ChannelKind, type Answer } from '@feedback/proto/feedback/survey/v1/survey';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoResponseRepository } from '../src/adapters/mongo/response.repository.js';
import { customerInput, planStages, stack, startSurveyService, uniq, type TestSurveyService } from './stack.js';

const questions: QuestionInput[] = [
  { key: 'nps', body: { en: 'Recommend us?' }, style: 'nps', options: [] },
  { key: 'again', body: { en: 'And a friend?' }, style: 'nps', options: [] },
  { key: 'note', body: { en: 'Anything else?' }, style: 'long_text', options: [] },
];
const answers = (nps: number, again: number): Answer[] => [
  { questionKey: 'nps', optionKeys: [], number: nps },
  { questionKey: 'again', optionKeys: [], number: again },
  { questionKey: 'note', optionKeys: [], text: `scored ${nps}` },
];
const noFilters = { flowId: '', channelId: '', customerExternalId: '', since: '', until: '', pageSize: 0, pageToken: '' };

// ListResponses' filters, GetResponse and GetNpsSummary: handlers on port 0 over the stack's MongoDB.
describe('the responses API of the survey service over gRPC', () => {
  let svc: TestSurveyService;
  const account = uniq('acc');
  let flowId: string;
  let web: string;
  let sms: string;
  const ids: string[] = [];
  let beforeLast: string;

  beforeAll(async () => {
    svc = await startSurveyService();
    flowId = (await svc.flowClient.createFlow({ accountId: account, name: 'Delivery', questions })).flow!.id;
    const channel = async (name: string, kind: ChannelKind) =>
      (await svc.client.createChannel({ accountId: account, name, nodeId: 'n1', nodeName: 'Unit', flowId, linkTtlDays: 0, kind })).channel!
        .id;
    web = await channel('web', ChannelKind.CHANNEL_KIND_LINK);
    sms = await channel('sms', ChannelKind.CHANNEL_KIND_SMS);
    const answer = async (channelId: string, externalId: string, nps: number, again: number) => {
      const link = await svc.client.activateSurveyLink({
        accountId: account,
        channelId,
        customer: customerInput({
          externalId,
          email: `${externalId}@example.com`,
          phoneNumber: '+905321234567'.slice(0, 10) + String(ids.length).padStart(3, '0'),
        }),
        customAttributes: {},
        builtInResponses: { order: externalId },
      });
      ids.push((await svc.client.submitAnswers({ token: link.linkToken, answers: answers(nps, again) })).responseId);
    };
    await answer(web, 'C-1', 10, 3);
    await answer(web, 'C-2', 9, 8);
    await answer(sms, 'C-1', 0, 9);
    beforeLast = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5)); // the last answer strictly after `beforeLast`
    await answer(sms, 'C-3', 7, 10);
  });

  afterAll(async () => {
    await svc?.close();
  });

  const list = async (q: Partial<typeof noFilters>, accountId = account) =>
    (await svc.client.listResponses({ accountId, ...noFilters, ...q })).responses.map((r) => r.id);

  it('filters by flow, channel, customer and answered_at, newest first', async () => {
    expect(await list({})).toEqual([...ids].reverse());
    expect(await list({ flowId, channelId: web })).toEqual([ids[1], ids[0]]);
    expect(await list({ channelId: sms.toUpperCase() })).toEqual([ids[3], ids[2]]);
    expect(await list({ customerExternalId: 'C-1' })).toEqual([ids[2], ids[0]]);
    expect(await list({ customerExternalId: 'C-1', channelId: sms })).toEqual([ids[2]]);
    // The customer's index, the channel checked on each: the newer answer by SMS is skipped.
    expect(await list({ customerExternalId: 'C-1', channelId: web, pageSize: 1 })).toEqual([ids[0]]);
    expect(await list({ customerExternalId: 'C-1', flowId, since: beforeLast })).toEqual([]);
    expect(await list({ since: beforeLast })).toEqual([ids[3]]);
    expect(await list({ until: beforeLast })).toEqual([ids[2], ids[1], ids[0]]);
    expect(await list({ customerExternalId: 'nobody' })).toEqual([]);
  });

  it('pages through a filtered list', async () => {
    const first = await svc.client.listResponses({ accountId: account, ...noFilters, channelId: web, pageSize: 1 });
    const second = await svc.client.listResponses({
      accountId: account,
      ...noFilters,
      channelId: web,
      pageSize: 1,
      pageToken: first.nextPageToken,
    });
    expect([...first.responses, ...second.responses].map((r) => r.id)).toEqual([ids[1], ids[0]]);
    expect(second.nextPageToken).toBe('');
  });

  it('reads a page after a token from an index, not by scanning the collection', async () => {
    const first = await svc.client.listResponses({ accountId: account, ...noFilters, flowId, pageSize: 1 });
    const page = pageQueryOf({ pageSize: 1, pageToken: first.nextPageToken }, { list: 'responses', default: 50, max: 200 });
    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const responses = new MongoResponseRepository(client.db(svc.mongo.db.databaseName));
      const [plan, ...more] = await explainFinds(client, () => responses.list({ accountId: account, flowId }, page));
      expect(more).toEqual([]);
      expect(plan?.stages).toContain('IXSCAN');
      expect(plan?.stages).not.toContain('COLLSCAN');
      expect(plan?.indexes).toEqual(['account_flow_newest']);
      expect(plan?.docsExamined).toBeLessThan(ids.length);
    } finally {
      await client.close();
    }
  });

  it('answers each response with its customer, and nothing to another account', async () => {
    const { response } = await svc.client.getResponse({ accountId: account, responseId: ids[0]! });
    expect(response).toMatchObject({
      id: ids[0],
      flowId,
      channelId: web,
      answers: answers(10, 3),
      builtInResponses: { order: 'C-1' },
      customer: { externalId: 'C-1', email: 'C-1@example.com', phone: expect.stringMatching(/^90532/) },
    });
    await expect(svc.client.getResponse({ accountId: 'other', responseId: ids[0]! })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { response_id: ids[0] },
    });
    expect(await list({}, 'other')).toEqual([]);
    await expect(svc.client.listResponses({ accountId: 'other', ...noFilters, channelId: web })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { channel_id: web },
    });
  });

  it('refuses bad filters naming the field', async () => {
    await expect(svc.client.listResponses({ accountId: account, ...noFilters, since: 'monday', channelId: 'x' })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { since: expect.any(String), channel_id: 'must be a UUID' },
    });
    await expect(
      svc.client.getNpsSummary({ accountId: account, flowId, channelId: '', since: '2026-11-23', until: '2026-11-22' }),
    ).rejects.toMatchObject({ kind: 'invalid', fields: { since: 'must not be after until' } });
  });

  it('sums up every nps question of the flow, per channel, and not for another account', async () => {
    const all = await svc.client.getNpsSummary({ accountId: account, flowId, channelId: '', since: '', until: '' });
    expect(all.questions).toEqual([
      // No interval nor group_by: no series, no groups.
      { questionKey: 'nps', promoters: 2, passives: 1, detractors: 1, total: 4, score: 25, series: [], groups: [] },
      { questionKey: 'again', promoters: 2, passives: 1, detractors: 1, total: 4, score: 25, series: [], groups: [] },
    ]);
    const ofSms = await svc.client.getNpsSummary({ accountId: account, flowId, channelId: sms, since: '', until: '' });
    expect(ofSms.questions[0]).toMatchObject({ questionKey: 'nps', promoters: 0, passives: 1, detractors: 1, total: 2, score: -50 });
    const future = await svc.client.getNpsSummary({ accountId: account, flowId, channelId: '', since: '2100-01-01', until: '' });
    expect(future.questions[0]).toEqual({ questionKey: 'nps', promoters: 0, passives: 0, detractors: 0, total: 0, series: [], groups: [] });
    await expect(svc.client.getNpsSummary({ accountId: 'other', flowId, channelId: '', since: '', until: '' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { flow_id: flowId },
    });
  });

  // The range comes from the index; the local server (SecantusDB) still plans a SORT stage over it,
  // so only the index choice is asserted.
  it('serves each filter from its index', async () => {
    const responses = svc.mongo.db.collection('responses');
    for (const [field, value, index] of [
      ['flow_id', flowId, 'account_flow_newest'],
      ['channel_id', web, 'account_channel_newest'],
      ['customer_id', 'c', 'account_customer_newest'],
    ] as const) {
      const plan = await responses
        .find({ account_id: account, [field]: value, sort_key: { $lt: '2100' } })
        .sort({ sort_key: -1 })
        .limit(10)
        .explain('queryPlanner');
      const winning = plan.queryPlanner.winningPlan;
      expect(planStages(winning), field).toContain('IXSCAN');
      expect(planStages(winning), field).not.toContain('COLLSCAN');
      expect(JSON.stringify(winning), field).toContain(index);
    }
  });

  it("keeps the link's send context with its response, and lists a sharing's answers from their index", async () => {
    const acc = uniq('acc');
    const flow = (await svc.flowClient.createFlow({ accountId: acc, name: 'Delivery', questions })).flow!.id;
    const channelId = (
      await svc.client.createChannel({
        accountId: acc,
        name: 'sms',
        nodeId: 'n1',
        nodeName: 'Unit',
        flowId: flow,
        linkTtlDays: 0,
        kind: ChannelKind.CHANNEL_KIND_SMS,
      })
    ).channel!.id;
    const sharingId = randomUUID();
    const answered = async (phone: string, store: string, nps: number) => {
      const link = await svc.client.activateSurveyLink({
        accountId: acc,
        channelId,
        customer: customerInput({ phoneNumber: `+${phone}` }),
        customAttributes: { order_id: `order of ${phone}`, store, TCKN: '10000000146' },
        builtInResponses: {},
        campaignId: 'camp-1',
        sharingId,
        messageId: `${sharingId}.${phone}`,
      });
      return (await svc.client.submitAnswers({ token: link.linkToken, answers: answers(nps, nps) })).responseId;
    };
    const first = await answered('905321230001', 'Moda', 10);
    const second = await answered('905321230002', 'Moda', 2);
    const listed = await svc.client.listResponses({ accountId: acc, ...noFilters, sharingId });
    expect(listed.responses.map((r) => r.id)).toEqual([second, first]);
    expect(listed.responses[1]!.context).toEqual({
      campaignId: 'camp-1',
      sharingId,
      messageId: `${sharingId}.905321230001`,
      customAttributes: { order_id: 'order of 905321230001', store: 'Moda' },
    });
    expect((await svc.client.getResponse({ accountId: acc, responseId: first })).response?.context?.sharingId).toBe(sharingId);
    expect((await svc.client.listResponses({ accountId: acc, ...noFilters, sharingId: randomUUID() })).responses).toEqual([]);
    // A personal link (no sharing) keeps an empty context.
    expect((await svc.client.getResponse({ accountId: account, responseId: ids[0]! })).response?.context).toEqual({
      campaignId: '',
      sharingId: '',
      messageId: '',
      customAttributes: {},
    });

    const nps = await svc.client.getNpsSummary({
      accountId: acc,
      flowId: flow,
      channelId: '',
      since: '',
      until: '',
      groupBy: 'store',
      interval: 'week',
    });
    expect(nps.questions[0]).toMatchObject({ total: 2, groups: [{ key: 'Moda', total: 2, promoters: 1, detractors: 1, score: 0 }] });
    expect(nps.questions[0]!.series).toHaveLength(1);

    const plan = await svc.mongo.db
      .collection('responses')
      .find({ account_id: acc, sharing_id: sharingId, sort_key: { $lt: '2100' } })
      .sort({ sort_key: -1 })
      .limit(10)
      .explain('queryPlanner');
    expect(planStages(plan.queryPlanner.winningPlan)).toContain('IXSCAN');
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('account_sharing_newest');
  });
});
