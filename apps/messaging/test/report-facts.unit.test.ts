import { AppError } from '@feedback/kit-core';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { SurveyAnswered, type SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import { describe, expect, it } from 'vitest';
import { CachedNpsQuestions } from '../src/reports/adapters/grpc/flow-nps.client.js';
import { decodeSurveyAnswered } from '../src/reports/adapters/kafka/answer-facts.consumer.js';
import { decodeLinkClicked } from '../src/reports/adapters/kafka/click-facts.consumer.js';
import { npsOf, recordAnswers } from '../src/reports/domain/answer-facts.js';
import { firstClicks, recordClicks } from '../src/reports/domain/click-facts.js';
import type { AnswerFact, ClickFact, FactDeps } from '../src/reports/ports.js';

/** The facts handed to the store, and the flows asked for. */
function memoryDeps(npsKeys: Record<string, string | null> = {}) {
  const clicks: ClickFact[][] = [];
  const answers: AnswerFact[][] = [];
  const asked: string[] = [];
  const deps: FactDeps = {
    facts: {
      recordClicks: async (f) => (clicks.push(f), f.length),
      recordAnswers: async (f) => (answers.push(f), f.length),
    },
    flows: { npsQuestionOf: async (accountId, flowId) => (asked.push(`${accountId}/${flowId}`), npsKeys[flowId] ?? null) },
  };
  return { deps, clicks, answers, asked };
}

const clicked = (code: string, clickedAtMs: number[]) =>
  Buffer.from(LinkClicked.encode(LinkClicked.fromPartial({ code, clickedAtMs })).finish());

const response = (r: Partial<SurveyResponse>): SurveyResponse => ({
  id: 'r1',
  accountId: 'acc',
  flowId: 'flow-1',
  channelId: 'ch',
  nodeId: 'n',
  customerId: 'cu',
  linkId: 'l',
  answers: [],
  builtInResponses: {},
  answeredAt: '2026-11-28T10:20:30.000Z',
  ...r,
});
const answered = (r: Partial<SurveyResponse>) => Buffer.from(SurveyAnswered.encode({ response: response(r) }).finish());
const context = { campaignId: 'camp', sharingId: 'sh', messageId: 'sh.905551112233', customAttributes: {} };

describe('clicks → the clicked fact', () => {
  it('takes the earliest click of each code across the records of a batch', () => {
    const facts = firstClicks([
      { code: 'aaaa1111', clickedAtMs: [3_000, 2_000] },
      { code: 'bbbb2222', clickedAtMs: [5_000] },
      { code: 'aaaa1111', clickedAtMs: [1_000] },
    ]);
    expect(facts).toEqual([
      { code: 'aaaa1111', at: new Date(1_000) },
      { code: 'bbbb2222', at: new Date(5_000) },
    ]);
  });

  it('records one fact per code in one call, and none for an empty batch', async () => {
    const { deps, clicks } = memoryDeps();
    expect(await recordClicks(deps, [])).toBe(0);
    await recordClicks(deps, [
      { code: 'aaaa1111', clickedAtMs: [2_000, 1_000] },
      { code: 'aaaa1111', clickedAtMs: [1_500] },
    ]);
    expect(clicks).toEqual([[{ code: 'aaaa1111', at: new Date(1_000) }]]);
  });

  it('decodes a link.clicked record, and refuses one without a code of ours or a valid click time', () => {
    expect(decodeLinkClicked(clicked('Ab3dE6g', [1_764_324_000_000]))).toEqual({ code: 'Ab3dE6g', clickedAtMs: [1_764_324_000_000] });
    expect(() => decodeLinkClicked(clicked('', [1]))).toThrow(/short code/);
    expect(() => decodeLinkClicked(clicked('../x', [1]))).toThrow(/short code/);
    expect(() => decodeLinkClicked(clicked('Ab3dE6g', []))).toThrow(/click times/);
    expect(() => decodeLinkClicked(clicked('Ab3dE6g', [-5]))).toThrow(/click times/);
    expect(() => decodeLinkClicked(Buffer.from([0xff, 0xff, 0xff]))).toThrow();
  });

  it('takes no fact from a record of excluded redirects only (bots, previews, HEAD), and only the clicks of a mixed one', () => {
    const excluded = (clickedAtMs: number[]) =>
      Buffer.from(
        LinkClicked.encode(LinkClicked.fromPartial({ code: 'Ab3dE6g', clickedAtMs, excludedAtMs: [1_764_324_000_000] })).finish(),
      );
    expect(decodeLinkClicked(excluded([]))).toBeNull();
    expect(decodeLinkClicked(excluded([1_764_324_000_500]))).toEqual({ code: 'Ab3dE6g', clickedAtMs: [1_764_324_000_500] });
  });

  it('takes no fact from a record of excluded redirects counted per second only (gateways since excluded_seconds)', () => {
    const perSecond = LinkClicked.fromPartial({ code: 'Ab3dE6g', excludedSeconds: [{ secondMs: 1_764_324_000_000, count: 35_000 }] });
    expect(decodeLinkClicked(Buffer.from(LinkClicked.encode(perSecond).finish()))).toBeNull();
  });
});

describe('answers → the answered fact and its NPS score', () => {
  it("reads the score of the flow's nps question only, an integer 0-10", () => {
    const answers = [
      { questionKey: 'q1', number: 4 },
      { questionKey: 'nps', number: 9 },
    ];
    expect(npsOf(answers, 'nps')).toBe(9);
    expect(npsOf(answers, null)).toBeUndefined();
    expect(npsOf(answers, 'skipped')).toBeUndefined();
    expect(npsOf([{ questionKey: 'nps', number: 11 }], 'nps')).toBeUndefined();
    expect(npsOf([{ questionKey: 'nps', number: 7.5 }], 'nps')).toBeUndefined();
    expect(npsOf([{ questionKey: 'nps' }], 'nps')).toBeUndefined();
    expect(npsOf([{ questionKey: 'nps', number: 0 }], 'nps')).toBe(0);
  });

  it('records each answered message with its score, asking for each flow once per batch', async () => {
    const { deps, answers, asked } = memoryDeps({ 'flow-1': 'rate', 'flow-2': null });
    const at = new Date('2026-11-28T10:00:00Z');
    await recordAnswers(deps, [
      { accountId: 'acc', flowId: 'flow-1', messageId: 'm1', answeredAt: at, answers: [{ questionKey: 'rate', number: 10 }] },
      { accountId: 'acc', flowId: 'flow-1', messageId: 'm2', answeredAt: at, answers: [{ questionKey: 'other', number: 3 }] },
      { accountId: 'acc', flowId: 'flow-2', messageId: 'm3', answeredAt: at, answers: [{ questionKey: 'rate', number: 2 }] },
    ]);
    expect(answers).toEqual([
      [
        { messageId: 'm1', accountId: 'acc', at, nps: 10 },
        { messageId: 'm2', accountId: 'acc', at },
        { messageId: 'm3', accountId: 'acc', at },
      ],
    ]);
    expect(asked).toEqual(['acc/flow-1', 'acc/flow-2']);
  });

  it('decodes survey.answered: the message, account, flow, time and numbers; nothing for an answer no SMS carried', () => {
    const event = decodeSurveyAnswered(
      answered({
        context,
        answers: [
          { questionKey: 'nps', optionKeys: [], number: 8 },
          { questionKey: 'why', optionKeys: [], text: 'ok' },
        ],
      }),
    );
    expect(event).toEqual({
      accountId: 'acc',
      flowId: 'flow-1',
      messageId: 'sh.905551112233',
      answeredAt: new Date('2026-11-28T10:20:30.000Z'),
      answers: [{ questionKey: 'nps', number: 8 }, { questionKey: 'why' }],
    });
    expect(decodeSurveyAnswered(answered({}))).toBeNull();
    expect(decodeSurveyAnswered(answered({ context: { ...context, messageId: '' } }))).toBeNull();
  });

  it('refuses survey.answered without a response, an account or an answer time', () => {
    expect(() => decodeSurveyAnswered(Buffer.from(SurveyAnswered.encode({}).finish()))).toThrow(/account/);
    expect(() => decodeSurveyAnswered(answered({ context, accountId: '' }))).toThrow(/account/);
    expect(() => decodeSurveyAnswered(answered({ context, answeredAt: 'yesterday' }))).toThrow(/answer time/);
  });
});

describe("a flow's NPS question, cached", () => {
  const flow = (questions: { key: string; style: string }[]) => ({
    flow: {
      id: 'flow-1',
      accountId: 'acc',
      name: 'f',
      createdAt: '',
      questions: questions.map((q) => ({ ...q, id: q.key, body: {}, options: [] })),
    },
  });

  it('is the first question of style nps, asked once per account and flow; an unknown flow has none', async () => {
    const calls: string[] = [];
    const nps = new CachedNpsQuestions(
      {
        getFlow: async ({ accountId, flowId }) => {
          calls.push(`${accountId}/${flowId}`);
          if (flowId === 'gone') throw new AppError('not_found', 'flow not found');
          return flow([
            { key: 'q1', style: 'scale' },
            { key: 'first-nps', style: 'nps' },
            { key: 'second-nps', style: 'nps' },
          ]);
        },
      },
      { maxEntries: 10, ttlMs: 60_000 },
    );
    expect(await nps.npsQuestionOf('acc', 'flow-1')).toBe('first-nps');
    expect(await nps.npsQuestionOf('acc', 'flow-1')).toBe('first-nps');
    expect(await nps.npsQuestionOf('acc', 'gone')).toBeNull();
    expect(await nps.npsQuestionOf('acc', 'gone')).toBeNull();
    expect(calls).toEqual(['acc/flow-1', 'acc/gone']);
  });

  it('throws while the flow service is unreachable, and remembers nothing then', async () => {
    let down = true;
    const nps = new CachedNpsQuestions(
      {
        getFlow: async () => {
          if (down) throw new AppError('unavailable', 'flow service down');
          return flow([{ key: 'n', style: 'nps' }]);
        },
      },
      { maxEntries: 10, ttlMs: 60_000 },
    );
    await expect(nps.npsQuestionOf('acc', 'flow-1')).rejects.toThrow(/down/);
    down = false;
    expect(await nps.npsQuestionOf('acc', 'flow-1')).toBe('n');
  });
});
