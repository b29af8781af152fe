import type { NpsQuestionSummary, SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import { describe, expect, it } from 'vitest';
import { npsView, surveyResponseView } from '../src/api/responses/responses.views.js';

const response: SurveyResponse = {
  id: 'r1',
  accountId: 'acc',
  flowId: 'f1',
  channelId: 'c1',
  nodeId: 'n',
  customerId: 'cu',
  linkId: 'l',
  answers: [{ questionKey: 'nps', optionKeys: [], number: 9 }],
  builtInResponses: {},
  answeredAt: '2026-11-22T09:30:00.123Z',
};

describe('a response as the API shows it', () => {
  it('carries where its link was sent from', () => {
    const view = surveyResponseView({
      ...response,
      context: { campaignId: 'camp', sharingId: 'sh', messageId: 'sh.905321234567', customAttributes: { order_id: 'A-1' } },
    });
    expect(view).toMatchObject({
      answers: { nps: 9 },
      campaign_id: 'camp',
      sharing_id: 'sh',
      message_id: 'sh.905321234567',
      custom_attributes: { order_id: 'A-1' },
    });
  });

  it('names no context for a personal link, and null for a response stored before it was kept', () => {
    const personal = surveyResponseView({ ...response, context: { campaignId: '', sharingId: '', messageId: '', customAttributes: {} } });
    expect(personal).toMatchObject({ campaign_id: null, sharing_id: null, message_id: null, custom_attributes: {} });
    expect(surveyResponseView(response)).toMatchObject({ campaign_id: null, sharing_id: null, message_id: null, custom_attributes: null });
  });
});

describe('the NPS as the API shows it', () => {
  const q: NpsQuestionSummary = {
    questionKey: 'nps',
    promoters: 1,
    passives: 0,
    detractors: 1,
    total: 2,
    score: 0,
    series: [{ key: '2026-03-30T00:00:00.000+02:00', promoters: 1, passives: 0, detractors: 1, total: 2, score: 0 }],
    groups: [{ key: '', promoters: 1, passives: 0, detractors: 1, total: 2 }],
  };

  it('adds series and groups only when asked for', () => {
    expect(npsView('f1', [q]).questions[0]).not.toHaveProperty('series');
    expect(npsView('f1', [q]).questions[0]).not.toHaveProperty('groups');
    expect(npsView('f1', [q], { interval: 'day', group_by: 'store' }).questions[0]).toMatchObject({
      series: [{ start: '2026-03-30T00:00:00.000+02:00', total: 2, score: 0 }],
      groups: [{ value: null, total: 2, score: null }],
    });
  });
});
