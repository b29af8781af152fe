import type { GrpcClient } from '@feedback/kit-grpc';
import { LinkState, type GetSurveyLinkStatesRequest, type SurveyServiceClient } from '@feedback/proto/feedback/survey/v1/survey';
import { describe, expect, it } from 'vitest';
import { surveyPorts } from '../src/shared/adapters/grpc/survey.client.js';

describe('survey client: statesOf', () => {
  it('asks in calls of at most 1,000 phones and answers every state in order', async () => {
    const calls: GetSurveyLinkStatesRequest[] = [];
    const byLastDigit = [
      LinkState.LINK_STATE_ACTIVE,
      LinkState.LINK_STATE_ANSWERED,
      LinkState.LINK_STATE_EXPIRED,
      LinkState.LINK_STATE_UNSPECIFIED,
    ];
    const client = {
      getSurveyLinkStates: async (req: GetSurveyLinkStatesRequest) => {
        calls.push(req);
        return { states: req.phones.map((p) => byLastDigit[Number(p.at(-1)) % 4]!) };
      },
    } as unknown as GrpcClient<SurveyServiceClient>;
    const phones = Array.from({ length: 2_001 }, (_, i) => `90532${String(i).padStart(7, '0')}`);

    const states = await surveyPorts(client).statesOf('acc', 'ch', phones);

    expect(calls.map((c) => c.phones.length)).toEqual([1_000, 1_000, 1]);
    expect(calls.every((c) => c.accountId === 'acc' && c.channelId === 'ch')).toBe(true);
    expect(states).toHaveLength(2_001);
    expect(states.slice(0, 4)).toEqual(['active', 'answered', 'expired', 'none']);
    expect(states.at(-1)).toBe('active'); // 2000: ends in 0
    expect(await surveyPorts(client).statesOf('acc', 'ch', [])).toEqual([]);
  });

  it('fails when the service answers another number of states', async () => {
    const client = { getSurveyLinkStates: async () => ({ states: [] }) } as unknown as GrpcClient<SurveyServiceClient>;
    await expect(surveyPorts(client).statesOf('acc', 'ch', ['905320000001'])).rejects.toThrow(/answered 0 states for 1/);
  });
});
