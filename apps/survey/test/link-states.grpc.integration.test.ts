import { LinkState } from '@feedback/proto/feedback/survey/v1/survey';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerInput, planStages, smsChannel, startSurveyService, uniq, type TestSurveyService } from './stack.js';

// GetSurveyLinkStates: what messaging asks for a sharing's funnel and its reminders.
describe('GetSurveyLinkStates over gRPC', () => {
  let svc: TestSurveyService;
  const account = uniq('acc');
  let channelId: string;

  beforeAll(async () => {
    svc = await startSurveyService();
    channelId = await smsChannel(svc, account);
  });

  afterAll(async () => {
    await svc?.close();
  });

  const activate = (phone: string, more: { externalId?: string; channelId?: string } = {}) =>
    svc.client.activateSurveyLink({
      accountId: account,
      channelId: more.channelId ?? channelId,
      customer: customerInput({ phoneNumber: phone, externalId: more.externalId ?? '' }),
      customAttributes: {},
      builtInResponses: {},
    });
  const states = (phones: string[], q: { accountId?: string; channelId?: string } = {}) =>
    svc.client.getSurveyLinkStates({ accountId: q.accountId ?? account, channelId: q.channelId ?? channelId, phones });

  it('answers each phone in order: active, answered, unspecified without a link; expired once past its expiry', async () => {
    const [active, answered] = ['905320000001', '905320000002'];
    await activate(`+${active}`);
    const a = await activate(`+${answered}`);
    await svc.client.submitAnswers({ token: a.linkToken, answers: [{ questionKey: 'nps', optionKeys: [], number: 9 }] });

    const res = await states([answered, '905320000099', active, answered]);
    expect(res.states).toEqual([
      LinkState.LINK_STATE_ANSWERED,
      LinkState.LINK_STATE_UNSPECIFIED,
      LinkState.LINK_STATE_ACTIVE,
      LinkState.LINK_STATE_ANSWERED,
    ]);

    svc.shiftClock(4 * 24 * 3600_000); // the channel's links live 3 days
    try {
      expect((await states([active, answered])).states).toEqual([LinkState.LINK_STATE_EXPIRED, LinkState.LINK_STATE_ANSWERED]);
    } finally {
      svc.shiftClock(0);
    }
  });

  it('finds a link by the phone it was last activated for, not by the phone its customer holds; the latest activation wins', async () => {
    const [crmPhone, shared] = ['905320000010', '905320000011'];
    await activate(`+${crmPhone}`, { externalId: 'crm-1' });
    const other = await activate(`+${shared}`);
    await svc.client.submitAnswers({ token: other.linkToken, answers: [{ questionKey: 'nps', optionKeys: [], number: 7 }] });
    // crm-1 texted at the phone another customer holds: the customer keeps its own phone, its link takes this one.
    const texted = await activate(`+${shared}`, { externalId: 'crm-1' });
    expect(texted.customerId).not.toBe(other.customerId);
    expect((await states([shared, crmPhone])).states).toEqual([LinkState.LINK_STATE_ACTIVE, LinkState.LINK_STATE_UNSPECIFIED]);
  });

  it('answers only the channel and account asked for', async () => {
    await activate('+905320000020');
    const other = await smsChannel(svc, account);
    expect((await states(['905320000020'], { channelId: other })).states).toEqual([LinkState.LINK_STATE_UNSPECIFIED]);
    await expect(states(['905320000020'], { accountId: uniq('acc') })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { channel_id: channelId },
    });
    await expect(states([], { channelId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('takes at most 1,000 phones', async () => {
    const phones = Array.from({ length: 1_000 }, (_, i) => `90532${String(i).padStart(7, '0')}`);
    expect((await states(phones)).states).toHaveLength(1_000);
    await expect(states([...phones, '905329999999'])).rejects.toMatchObject({
      kind: 'invalid',
      fields: { phones: 'must have at most 1000 items' },
    });
  });

  it('reads the links of the phones by one index', async () => {
    const plan = await svc.mongo.db
      .collection('links')
      .find({ account_id: account, channel_id: channelId, phone: { $in: ['905320000001', '905320000002'] } })
      .explain('queryPlanner');
    expect(planStages(plan.queryPlanner.winningPlan)).toContain('IXSCAN');
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('account_channel_phone');
  });
});
