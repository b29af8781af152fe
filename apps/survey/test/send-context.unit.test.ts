import { describe, expect, it } from 'vitest';
import { activateSurveyLink, type ActivationRequest } from '../src/domain/activation.use-cases.js';
import { activateSurveyLinks } from '../src/domain/activation-batch.use-cases.js';
import { createChannel } from '../src/domain/channel.use-cases.js';
import type { AnswerValue } from '../src/domain/response.js';
import { listResponses } from '../src/domain/responses.use-cases.js';
import { submitAnswers } from '../src/domain/survey-page.use-cases.js';
import { memoryDeps, sampleFlow, uuid } from './fakes/memory-deps.js';

const answers: AnswerValue[] = [
  { questionKey: 'single', optionKeys: ['a'] },
  { questionKey: 'multi', optionKeys: ['y'] },
  { questionKey: 'drop', optionKeys: ['p'] },
  ...['nps', 'csat', 'ces', 'stars', 'emoji', 'yn'].map((k) => ({ questionKey: k, optionKeys: [], number: 1 })),
];

async function setup() {
  const d = memoryDeps();
  d.config.sensitiveAttributes = ['tckn', 'Loyalty_Card'];
  const flow = sampleFlow('acc');
  d.flows.items.push(flow);
  const channel = await createChannel(d, 'acc', {
    name: 'SMS',
    nodeId: 'n1',
    nodeName: 'Unit',
    flowId: flow.id,
    linkTtlDays: 2,
    kind: 'sms',
  });
  const [campaignId, sharingId] = [uuid(), uuid()];
  const request = (phone: string, more: Partial<ActivationRequest> = {}): ActivationRequest => ({
    accountId: 'acc',
    channelId: channel.id,
    customer: { phoneNumber: phone, email: '', externalId: '', name: '', schema: {} },
    customAttributes: { order_id: 'A-1', store: 'Kadikoy', TCKN: '10000000146', loyalty_card: '4242' },
    builtInResponses: {},
    campaignId,
    sharingId,
    messageId: `${sharingId}.${phone}`,
    ...more,
  });
  return { d, flow, channel, campaignId, sharingId, request };
}

describe('the send context of a link and its response', () => {
  it('keeps the campaign, sharing, message and custom attributes but the sensitive ones, and copies them onto the response', async () => {
    const { d, campaignId, sharingId, request } = await setup();
    const { link } = await activateSurveyLink(d, request('905321234567'));
    const context = {
      campaignId,
      sharingId,
      messageId: `${sharingId}.905321234567`,
      customAttributes: { order_id: 'A-1', store: 'Kadikoy' },
    };
    expect(link.context).toEqual(context);
    const response = await submitAnswers(d, link.token, answers);
    expect(response.context).toEqual(context);
    expect((await listResponses(d, { accountId: 'acc', flowId: '', pageSize: 0, pageToken: '' })).responses[0]?.response.context).toEqual(
      context,
    );
  });

  it('takes the context from a batch activation too, and each activation replaces the last', async () => {
    const { d, sharingId, request } = await setup();
    const [first] = await activateSurveyLinks(d, 'acc', [request('905321234567')]);
    expect(first && 'ok' in first && first.ok.link.context?.sharingId).toBe(sharingId);
    const later = uuid();
    const { link } = await activateSurveyLink(d, request('905321234567', { sharingId: later, customAttributes: { order_id: 'B-2' } }));
    expect(link.context).toMatchObject({ sharingId: later, customAttributes: { order_id: 'B-2' } });
    expect((await submitAnswers(d, link.token, answers)).context).toMatchObject({
      sharingId: later,
      customAttributes: { order_id: 'B-2' },
    });
  });

  it('keeps no ids for a link not sent by a sharing', async () => {
    const { d, request } = await setup();
    const { link } = await activateSurveyLink(
      d,
      request('905321234568', { campaignId: '', sharingId: '', messageId: '', customAttributes: {} }),
    );
    expect(link.context).toEqual({ customAttributes: {} });
  });

  it('refuses an overlong id by name', async () => {
    const { d, request } = await setup();
    await expect(activateSurveyLink(d, request('905321234567', { messageId: 'm'.repeat(201) }))).rejects.toMatchObject({
      kind: 'invalid',
      fields: { message_id: expect.any(String) },
    });
  });

  it("filters the responses by sharing; another sharing's id selects none, a malformed one is refused", async () => {
    const { d, sharingId, request } = await setup();
    const other = uuid();
    for (const [phone, sharing] of [
      ['905321234567', sharingId],
      ['905321234568', sharingId],
      ['905321234569', other],
    ] as const) {
      const { link } = await activateSurveyLink(d, request(phone, { sharingId: sharing }));
      await submitAnswers(d, link.token, answers);
    }
    const list = (sharing: string) => listResponses(d, { accountId: 'acc', flowId: '', sharingId: sharing, pageSize: 0, pageToken: '' });
    expect((await list(sharingId)).responses).toHaveLength(2);
    expect((await list(other)).responses).toHaveLength(1);
    expect((await list(uuid())).responses).toHaveLength(0);
    await expect(list('nope')).rejects.toMatchObject({ kind: 'invalid', fields: { sharing_id: 'must be a UUID' } });
  });
});
