import { describe, expect, it } from 'vitest';
import { activateSurveyLink } from '../src/domain/activation.use-cases.js';
import { createChannel } from '../src/domain/channel.use-cases.js';
import { DAY_MS } from '../src/domain/link.js';
import type { AnswerValue } from '../src/domain/response.js';
import { listResponses } from '../src/domain/responses.use-cases.js';
import { SURVEY_CODES } from '../src/domain/survey-errors.js';
import { getSurveyPage, republishAnswered, submitAnswers } from '../src/domain/survey-page.use-cases.js';
import { memoryDeps, sampleFlow } from './fakes/memory-deps.js';

const answers: AnswerValue[] = [
  ['single', ['a']],
  ['multi', ['y']],
  ['drop', ['p']],
].map(([k, o]) => ({ questionKey: k as string, optionKeys: o as string[] }));
const scores: AnswerValue[] = ['nps', 'csat', 'ces', 'stars', 'emoji', 'yn'].map((k) => ({ questionKey: k, optionKeys: [], number: 1 }));
const full = [...answers, ...scores];

async function setup() {
  const d = memoryDeps();
  const flow = sampleFlow('acc');
  d.flows.items.push(flow);
  const channel = await createChannel(d, 'acc', {
    name: 'Web',
    nodeId: 'n1',
    nodeName: 'Unit',
    flowId: flow.id,
    linkTtlDays: 2,
    kind: 'link',
  });
  const activate = (email = 'ada@x.io') =>
    activateSurveyLink(d, {
      accountId: 'acc',
      channelId: channel.id,
      customer: { phoneNumber: '', email, externalId: '', name: 'Ada', schema: { language: 'tr' } },
      customAttributes: {},
      builtInResponses: { customerDetailInfo1: 'order-42' },
    });
  return { d, flow, channel, activate };
}

describe('the survey page', () => {
  it("shows an active link with the flow, the customer's name and language", async () => {
    const { d, flow, activate } = await setup();
    const { link } = await activate();
    const page = await getSurveyPage(d, link.token);
    expect(page).toMatchObject({
      state: 'active',
      flow: { id: flow.id },
      customerName: 'Ada',
      language: 'tr',
      link: { builtInResponses: { customerDetailInfo1: 'order-42' } },
    });
  });

  it('names the phone an SMS link was texted to, and none for a link of another channel', async () => {
    const { d, flow, activate } = await setup();
    const { link } = await activate();
    expect(await getSurveyPage(d, link.token)).toMatchObject({ smsPhone: '', link: { accountId: 'acc' } });
    const sms = await createChannel(d, 'acc', {
      name: 'SMS',
      nodeId: 'n1',
      nodeName: 'Unit',
      flowId: flow.id,
      linkTtlDays: 2,
      kind: 'sms',
    });
    const texted = await activateSurveyLink(d, {
      accountId: 'acc',
      channelId: sms.id,
      customer: { phoneNumber: '+90 532 123 45 67', email: '', externalId: '', name: 'Ada', schema: {} },
      customAttributes: {},
      builtInResponses: {},
    });
    expect((await getSurveyPage(d, texted.link.token)).smsPhone).toBe('905321234567');
  });

  it('answers not found for an unknown or malformed token', async () => {
    const { d } = await setup();
    await expect(getSurveyPage(d, 'A'.repeat(32))).rejects.toMatchObject({ kind: 'not_found', fields: { token: expect.any(String) } });
    await expect(getSurveyPage(d, '../etc')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('stores the answers with the built-in responses, marks the link answered and publishes once', async () => {
    const { d, channel, activate } = await setup();
    const { link, customer } = await activate();
    const response = await submitAnswers(d, link.token, full);
    expect(response).toMatchObject({
      accountId: 'acc',
      channelId: channel.id,
      nodeId: 'n1',
      customerId: customer.id,
      linkId: link.id,
      builtInResponses: { customerDetailInfo1: 'order-42' },
    });
    expect(response.answers).toHaveLength(9);
    expect((await getSurveyPage(d, link.token)).state).toBe('answered');
    expect(d.events.answeredIds).toEqual([response.id]);
    expect(d.responses.items[0]?.pending).toBe(false);
  });

  it('refuses a second submit as already answered (13040), also when two race', async () => {
    const { d, activate } = await setup();
    const { link } = await activate();
    const both = await Promise.allSettled([submitAnswers(d, link.token, full), submitAnswers(d, link.token, full)]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(both.find((r) => r.status === 'rejected')).toMatchObject({ reason: { kind: 'gone', code: SURVEY_CODES.alreadyAnswered } });
    await expect(submitAnswers(d, link.token, full)).rejects.toMatchObject({
      code: SURVEY_CODES.alreadyAnswered,
      message: 'Survey already answered',
    });
    expect(d.responses.items).toHaveLength(1);
  });

  it('refuses an expired link (13041) and shows it as expired; a re-activation opens it again', async () => {
    const { d, activate } = await setup();
    const { link } = await activate();
    d.clock.at = new Date(d.clock.at.getTime() + 2 * DAY_MS);
    expect((await getSurveyPage(d, link.token)).state).toBe('expired');
    await expect(submitAnswers(d, link.token, full)).rejects.toMatchObject({ kind: 'gone', code: SURVEY_CODES.linkExpired });
    await activate();
    expect((await getSurveyPage(d, link.token)).state).toBe('active');
    await submitAnswers(d, link.token, full);
    await activate();
    await submitAnswers(d, link.token, full); // a new activation takes a new response
    expect(d.responses.items.map((r) => r.activation)).toEqual([2, 3]);
  });

  it('stores nothing for invalid answers', async () => {
    const { d, activate } = await setup();
    const { link } = await activate();
    await expect(submitAnswers(d, link.token, answers)).rejects.toMatchObject({
      kind: 'invalid',
      fields: { 'answers.nps': 'is required' },
    });
    expect(d.responses.items).toHaveLength(0);
    expect((await getSurveyPage(d, link.token)).state).toBe('active');
  });

  it('keeps the event in the outbox when Kafka fails, and the job publishes it later', async () => {
    const { d, activate } = await setup();
    const { link } = await activate();
    d.events.failing = true;
    const response = await submitAnswers(d, link.token, full);
    expect(d.events.answeredIds).toEqual([]);
    d.events.failing = false;
    expect(await republishAnswered(d, 60_000)).toBe(0); // too young: the submit may still be publishing
    d.clock.at = new Date(d.clock.at.getTime() + 61_000);
    expect(await republishAnswered(d, 60_000)).toBe(1);
    expect(d.events.answeredIds).toEqual([response.id]);
    expect(await republishAnswered(d, 60_000)).toBe(0);
  });
});

describe('listResponses', () => {
  it('pages newest first with a cursor, per flow or for the account', async () => {
    const { d, flow, activate } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { link } = await activate(`c${i}@x.io`);
      ids.push((await submitAnswers(d, link.token, full)).id);
      d.clock.at = new Date(d.clock.at.getTime() + 1000);
    }
    const first = await listResponses(d, { accountId: 'acc', flowId: flow.id, pageSize: 2, pageToken: '' });
    const second = await listResponses(d, { accountId: 'acc', flowId: flow.id, pageSize: 2, pageToken: first.nextPageToken });
    const third = await listResponses(d, { accountId: 'acc', flowId: '', pageSize: 2, pageToken: second.nextPageToken });
    expect([...first.responses, ...second.responses, ...third.responses].map((r) => r.response.id)).toEqual(ids.reverse());
    expect(third.nextPageToken).toBe('');
  });

  it('answers not found for a foreign flow and refuses a forged page token', async () => {
    const { d, flow } = await setup();
    await expect(listResponses(d, { accountId: 'other', flowId: flow.id, pageSize: 0, pageToken: '' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { flow_id: flow.id },
    });
    await expect(listResponses(d, { accountId: 'acc', flowId: '', pageSize: 0, pageToken: 'abc' })).rejects.toMatchObject({
      fields: { page_token: expect.any(String) },
    });
    await expect(listResponses(d, { accountId: 'acc', flowId: '', pageSize: 201, pageToken: '' })).rejects.toMatchObject({
      fields: { page_size: expect.any(String) },
    });
  });
});
