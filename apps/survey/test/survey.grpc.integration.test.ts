import { AppError } from '@feedback/kit-core';
import { runConsumer, type ConsumedMessage, type ConsumerHandle } from '@feedback/kit-kafka';
import type { QuestionInput } from '@feedback/proto/feedback/flow/v1/flow';
import { ChannelKind, LinkState, SurveyAnswered, type Answer, type CustomerInput } from '@feedback/proto/feedback/survey/v1/survey';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerInput, kafka, logger, startSurveyService, uniq, waitFor, type TestSurveyService } from './stack.js';

const questions: QuestionInput[] = [
  { key: 'nps', body: { en: 'Recommend us?', tr: 'Tavsiye eder misiniz?' }, style: 'nps', options: [] },
  {
    key: 'why',
    body: { en: 'Why?' },
    style: 'multiple_choice',
    options: [
      { key: 'price', body: { en: 'Price' } },
      { key: 'speed', body: { en: 'Speed' } },
    ],
  },
  { key: 'note', body: { en: 'Anything else?' }, style: 'long_text', options: [] },
];
const goodAnswers: Answer[] = [
  { questionKey: 'nps', optionKeys: [], number: 9 },
  { questionKey: 'why', optionKeys: ['speed'] },
  { questionKey: 'note', optionKeys: [], text: 'Quick delivery' },
];

// The survey service's gRPC handlers on port 0 against the stack's MongoDB and Kafka.
describe('SurveyService over gRPC', () => {
  let svc: TestSurveyService;
  let consumer: ConsumerHandle;
  const events: ConsumedMessage[] = [];
  const account = uniq('acc');
  let flowId: string;
  let channelId: string;

  beforeAll(async () => {
    svc = await startSurveyService();
    consumer = await runConsumer({
      kafka,
      logger,
      groupId: uniq('g'),
      topics: [svc.topic],
      fromBeginning: true,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      handler: async (msg) => void events.push(msg),
    });
    flowId = (await svc.flowClient.createFlow({ accountId: account, name: 'Delivery', questions })).flow!.id;
    const { channel } = await svc.client.createChannel({
      accountId: account,
      name: 'Web links',
      nodeId: 'node-1',
      nodeName: 'Kadikoy',
      flowId,
      linkTtlDays: 0,
      kind: ChannelKind.CHANNEL_KIND_UNSPECIFIED,
    });
    channelId = channel!.id;
  });

  afterAll(async () => {
    await consumer?.stop();
    await svc?.close();
  });

  const activate = (c: Partial<CustomerInput>, more: { channelId?: string; builtInResponses?: Record<string, string> } = {}) =>
    svc.client.activateSurveyLink({
      accountId: account,
      channelId: more.channelId ?? channelId,
      customer: customerInput(c),
      customAttributes: {},
      builtInResponses: more.builtInResponses ?? {},
    });

  it('creates channels checked against the flow service, scoped by account', async () => {
    const { channel } = await svc.client.describeChannel({ accountId: account, channelId });
    expect(channel).toMatchObject({
      name: 'Web links',
      nodeId: 'node-1',
      nodeName: 'Kadikoy',
      flowId,
      flowName: 'Delivery',
      linkTtlDays: 7,
      kind: ChannelKind.CHANNEL_KIND_LINK,
    });
    expect(channel!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await expect(svc.client.describeChannel({ accountId: 'other', channelId })).rejects.toMatchObject({
      kind: 'not_found',
      code: 13002,
      fields: { channel_id: channelId },
    });
    await expect(svc.client.describeChannel({ accountId: account, channelId: 'not-a-uuid' })).rejects.toMatchObject({ kind: 'not_found' });
    const foreignFlow = await svc.client
      .createChannel({
        accountId: 'other',
        name: 'x',
        nodeId: 'n',
        nodeName: 'N',
        flowId,
        linkTtlDays: 1,
        kind: ChannelKind.CHANNEL_KIND_SMS,
      })
      .catch((e: unknown) => e);
    expect(foreignFlow).toMatchObject({ kind: 'not_found', fields: { flow_id: flowId } });
    expect((await svc.client.listChannels({ accountId: account })).channels.map((c) => c.id)).toContain(channelId);
  });

  it('activates a link, finds it as an active survey, and shows its page', async () => {
    const a = await activate(
      { phoneNumber: '0532 111 22 33', externalId: 'crm-1', name: 'Ada', schema: { TCKN: '10000000146' } },
      { builtInResponses: { customerDetailInfo1: 'order-7' } },
    );
    expect(a).toMatchObject({ customerCreated: true, channelId, linkUrl: `http://127.0.0.1:8080/s/${a.linkToken}` });
    expect(a.linkToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(a.expiresAt) - Date.parse(a.activatedAt)).toBe(7 * 24 * 3600_000);

    const { surveys } = await svc.client.listActiveSurveys({
      accountId: account,
      nodeId: 'node-1',
      phoneNumber: '+905321112233',
      email: '',
      externalId: 'crm-1',
      tckn: '10000000146',
      responseChannelId: '',
    });
    expect(surveys).toEqual([
      {
        linkUrl: a.linkUrl,
        surveyName: 'Delivery',
        activatedAt: a.activatedAt,
        nodeId: 'node-1',
        nodeName: 'Kadikoy',
        channelId,
        channelName: 'Web links',
        flowId,
        expiresAt: a.expiresAt,
      },
    ]);
    const wrongTckn = await svc.client.listActiveSurveys({
      accountId: account,
      nodeId: 'node-1',
      phoneNumber: '',
      email: '',
      externalId: 'crm-1',
      tckn: '1',
      responseChannelId: '',
    });
    expect(wrongTckn.surveys).toEqual([]);

    const page = await svc.client.getSurveyPage({ token: a.linkToken });
    expect(page).toMatchObject({
      state: LinkState.LINK_STATE_ACTIVE,
      customerName: 'Ada',
      builtInResponses: { customerDetailInfo1: 'order-7' },
      channelId,
      nodeName: 'Kadikoy',
    });
    expect(page.flow?.questions.map((q) => q.key)).toEqual(['nps', 'why', 'note']);
    expect(page.flow?.questions[0]?.body).toEqual({ en: 'Recommend us?', tr: 'Tavsiye eder misiniz?' });
    expect(page.answeredAt).toBeUndefined();
  });

  it('activates a batch: one result per item in order, a failing item answers alone, too many items refuse the call', async () => {
    const item = (c: Partial<CustomerInput>, more: { channelId?: string; accountId?: string } = {}) => ({
      accountId: more.accountId ?? account,
      channelId: more.channelId ?? channelId,
      customer: customerInput(c),
      customAttributes: {},
      builtInResponses: {},
    });
    const unknownChannel = '00000000-0000-4000-8000-00000000dead';
    const { results } = await svc.client.activateSurveyLinks({
      accountId: account,
      items: [
        item({ phoneNumber: '0532 999 00 01', name: 'Batch' }),
        item({ phoneNumber: '12' }),
        item({ phoneNumber: '0532 999 00 02' }, { channelId: unknownChannel }),
        item({ phoneNumber: '+90 532 999 00 01' }),
        item({ email: 'batch@example.com' }),
      ],
    });
    expect(results).toHaveLength(5);
    const [first, badPhone, noChannel, again, byMail] = results;
    expect(first).toMatchObject({ errorCode: '', errorMessage: '' });
    expect(first!.linkUrl).toMatch(/^http:\/\/127\.0\.0\.1:8080\/s\/[A-Za-z0-9_-]{32}$/);
    expect(badPhone).toEqual({
      linkUrl: '',
      customerId: '',
      linkId: '',
      errorCode: 'INVALID_ARGUMENT',
      errorMessage: expect.stringContaining('customer.phone_number'),
    });
    expect(noChannel).toMatchObject({ errorCode: 'NOT_FOUND', customerId: '', errorMessage: expect.stringContaining(unknownChannel) });
    // The same phone twice: one customer, one link, as two calls would give.
    expect(again).toMatchObject({ customerId: first!.customerId, linkId: first!.linkId, linkUrl: first!.linkUrl, errorCode: '' });
    expect(byMail!.customerId).not.toBe(first!.customerId);

    // A single call afterwards finds the batch's customer and link, activated for the third time.
    const single = await activate({ phoneNumber: '05329990001' });
    expect(single).toMatchObject({ customerCreated: false, customerId: first!.customerId, linkId: first!.linkId });
    const stored = await svc.mongo.db.collection('links').findOne({ _id: first!.linkId as never });
    expect(stored?.activation).toBe(3);

    const tooMany = Array.from({ length: 1001 }, (_, i) => item({ phoneNumber: `0532 8${String(i).padStart(6, '0')}` }));
    await expect(svc.client.activateSurveyLinks({ accountId: account, items: tooMany })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { items: expect.any(String) },
    });
    await expect(
      svc.client.activateSurveyLinks({ accountId: account, items: [item({ phoneNumber: '0532 999 00 03' }, { accountId: 'other' })] }),
    ).rejects.toMatchObject({ kind: 'invalid', fields: { 'items[0].account_id': expect.any(String) } });
    expect(
      await svc.mongo.db.collection('customers').countDocuments({ account_id: account, phone: { $in: ['905328000000', '905329990003'] } }),
    ).toBe(0);
  });

  it('names the missing identifiers as INVALID_ARGUMENT', async () => {
    const err = await svc.client
      .listActiveSurveys({
        accountId: account,
        nodeId: 'node-1',
        phoneNumber: '',
        email: '',
        externalId: '',
        tckn: '',
        responseChannelId: '',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'invalid', code: 13000 });
    expect(Object.keys((err as AppError).fields).sort()).toEqual(['customer.email', 'customer.external_id', 'customer.phone_number']);
  });

  it('stores answers once, publishes survey.answered, and then lists the link as answered', async () => {
    const a = await activate({ email: 'Submit@Example.com', name: 'Sam' }, { builtInResponses: { customerDetailInfo2: 'B' } });
    const bad = await svc.client
      .submitAnswers({ token: a.linkToken, answers: [{ questionKey: 'nps', optionKeys: [], number: 11 }] })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({
      kind: 'invalid',
      fields: { 'answers.nps': 'must be an integer from 0 to 10', 'answers.why': 'is required' },
    });

    const done = await svc.client.submitAnswers({ token: a.linkToken, answers: goodAnswers });
    const again = await svc.client.submitAnswers({ token: a.linkToken, answers: goodAnswers }).catch((e: unknown) => e);
    expect(again).toMatchObject({ kind: 'gone', code: 13040, message: 'Survey already answered' });
    expect((await svc.client.getSurveyPage({ token: a.linkToken })).state).toBe(LinkState.LINK_STATE_ANSWERED);
    const active = await svc.client.listActiveSurveys({
      accountId: account,
      nodeId: 'node-1',
      phoneNumber: '',
      email: 'submit@example.com',
      externalId: '',
      tckn: '',
      responseChannelId: '',
    });
    expect(active.surveys).toEqual([]);

    await waitFor('survey.answered event', () => events.some((e) => e.headers['event-id'] === `survey.answered:${done.responseId}`));
    const event = events.find((e) => e.headers['event-id'] === `survey.answered:${done.responseId}`)!;
    expect(event.key).toBe(a.customerId);
    const { response } = SurveyAnswered.decode(event.value);
    expect(response).toMatchObject({
      id: done.responseId,
      accountId: account,
      flowId,
      channelId,
      nodeId: 'node-1',
      customerId: a.customerId,
      linkId: a.linkId,
      builtInResponses: { customerDetailInfo2: 'B' },
    });
    expect(response?.answers).toEqual(goodAnswers);
    const pending = await svc.mongo.db.collection('responses').countDocuments({ event_pending_since: { $exists: true } });
    expect(pending).toBe(0);
  });

  it('refuses an expired link with 13041 and shows it as expired; unknown tokens are NOT_FOUND', async () => {
    const a = await activate({ email: 'late@example.com' });
    svc.shiftClock(8 * 24 * 3600_000);
    try {
      expect((await svc.client.getSurveyPage({ token: a.linkToken })).state).toBe(LinkState.LINK_STATE_EXPIRED);
      await expect(svc.client.submitAnswers({ token: a.linkToken, answers: goodAnswers })).rejects.toMatchObject({
        kind: 'gone',
        code: 13041,
      });
    } finally {
      svc.shiftClock(0);
    }
    await expect(svc.client.getSurveyPage({ token: 'A'.repeat(32) })).rejects.toMatchObject({ kind: 'not_found', code: 13002 });
  });

  it('lists responses newest first, page by page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await activate({ email: `page${i}@example.com` });
      ids.push((await svc.client.submitAnswers({ token: a.linkToken, answers: goodAnswers })).responseId);
    }
    const noFilters = { channelId: '', customerExternalId: '', since: '', until: '' };
    const first = await svc.client.listResponses({ accountId: account, flowId, pageSize: 2, pageToken: '', ...noFilters });
    const second = await svc.client.listResponses({
      accountId: account,
      flowId,
      pageSize: 2,
      pageToken: first.nextPageToken,
      ...noFilters,
    });
    const seen = [...first.responses, ...second.responses].map((r) => r.id);
    expect(seen.slice(0, 3)).toEqual([...ids].reverse());
    expect(first.responses[0]?.answers).toEqual(goodAnswers);
    await expect(svc.client.listResponses({ accountId: 'other', flowId, pageSize: 0, pageToken: '', ...noFilters })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { flow_id: flowId },
    });
  });
});
