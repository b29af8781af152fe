import { AppError, PersonalDataProtector } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { activateSurveyLink } from '../src/domain/activation.use-cases.js';
import { listActiveSurveys, type ActiveSurveyQuery } from '../src/domain/active-surveys.use-cases.js';
import { createChannel } from '../src/domain/channel.use-cases.js';
import { DAY_MS } from '../src/domain/link.js';
import { memoryDeps, sampleFlow } from './fakes/memory-deps.js';

async function setup() {
  const d = memoryDeps();
  const flow = sampleFlow('acc');
  d.flows.items.push(flow);
  const mk = (name: string, nodeId: string, ttl = 7) =>
    createChannel(d, 'acc', { name, nodeId, nodeName: `Unit ${nodeId}`, flowId: flow.id, linkTtlDays: ttl, kind: 'link' });
  const web = await mk('Web', 'n1');
  const sms = await mk('SMS', 'n1', 1);
  const elsewhere = await mk('Other node', 'n2');
  const activate = (channelId: string, customer: Record<string, unknown>) =>
    activateSurveyLink(d, {
      accountId: 'acc',
      channelId,
      customer: { phoneNumber: '', email: '', externalId: '', name: '', schema: {}, ...customer },
      customAttributes: {},
      builtInResponses: {},
    });
  return { d, web, sms, elsewhere, activate };
}

const query = (q: Partial<ActiveSurveyQuery>): ActiveSurveyQuery => ({
  accountId: 'acc',
  nodeId: 'n1',
  phoneNumber: '',
  email: '',
  externalId: '',
  tckn: '',
  responseChannelId: '',
  ...q,
});

describe('listActiveSurveys', () => {
  it("lists the customer's active links on the node, newest activation first", async () => {
    const { d, web, sms, elsewhere, activate } = await setup();
    const ada = { externalId: 'e1', email: 'ada@x.io', phoneNumber: '5321234567', schema: { TCKN: '10000000146' } };
    await activate(web.id, ada);
    d.clock.at = new Date(d.clock.at.getTime() + 60_000);
    await activate(sms.id, ada);
    await activate(elsewhere.id, ada);
    const found = await listActiveSurveys(d, query({ phoneNumber: '+90 532 123 45 67' }));
    expect(found.map((s) => s.link.channelId)).toEqual([sms.id, web.id]);
    expect(found[0]).toMatchObject({
      link: { flowName: 'Checkout survey', nodeName: 'Unit n1' },
      url: expect.stringMatching(/^https:\/\/feedback\.example\.com\/s\//),
    });
  });

  it('combines identifiers with AND: all must point at the same customer', async () => {
    const { d, web, activate } = await setup();
    await activate(web.id, { externalId: 'e1', email: 'ada@x.io' });
    await activate(web.id, { externalId: 'e2', phoneNumber: '5321234567' });
    expect(await listActiveSurveys(d, query({ externalId: 'e1', email: 'ADA@x.io' }))).toHaveLength(1);
    expect(await listActiveSurveys(d, query({ externalId: 'e1', phoneNumber: '5321234567' }))).toEqual([]);
    expect(await listActiveSurveys(d, query({ email: 'ada@x.io', externalId: 'unknown' }))).toEqual([]);
    expect(await listActiveSurveys(d, query({ externalId: 'e2', phoneNumber: '05321234567' }))).toHaveLength(1);
  });

  it("requires the TCKN to match the customer's schema when given", async () => {
    const { d, web, activate } = await setup();
    await activate(web.id, { email: 'ada@x.io', schema: { TCKN: '10000000146' } });
    await activate(web.id, { email: 'bob@x.io' });
    expect(await listActiveSurveys(d, query({ email: 'ada@x.io', tckn: '10000000146' }))).toHaveLength(1);
    expect(await listActiveSurveys(d, query({ email: 'ada@x.io', tckn: '99999999999' }))).toEqual([]);
    expect(await listActiveSurveys(d, query({ email: 'bob@x.io', tckn: '10000000146' }))).toEqual([]);
  });

  it('matches a TCKN hashed under a previous key, and a clear one the start-up migration has not reached yet', async () => {
    const { d, web, activate } = await setup();
    const previous = new PersonalDataProtector(Buffer.alloc(32, 1));
    const older = await activate(web.id, { email: 'old-key@x.io' });
    const clear = await activate(web.id, { email: 'clear@x.io' });
    d.customers.items.find((c) => c.id === older.customer.id)!.schema.TCKN = previous.hash('10000000146', 'customer.tckn');
    d.customers.items.find((c) => c.id === clear.customer.id)!.schema.TCKN = '20000000046';
    d.personalData = new PersonalDataProtector(Buffer.alloc(32, 2), [Buffer.alloc(32, 1)]);
    expect(await listActiveSurveys(d, query({ email: 'old-key@x.io', tckn: '10000000146' }))).toHaveLength(1);
    expect(await listActiveSurveys(d, query({ email: 'old-key@x.io', tckn: '20000000046' }))).toEqual([]);
    expect(await listActiveSurveys(d, query({ email: 'clear@x.io', tckn: '20000000046' }))).toHaveLength(1);
    // Without the previous key, what it hashed no longer matches.
    d.personalData = new PersonalDataProtector(Buffer.alloc(32, 2));
    expect(await listActiveSurveys(d, query({ email: 'old-key@x.io', tckn: '10000000146' }))).toEqual([]);
  });

  it('leaves out answered and expired links, and shows a re-activated one again', async () => {
    const { d, web, sms, activate } = await setup();
    const a = await activate(web.id, { email: 'ada@x.io' });
    await activate(sms.id, { email: 'ada@x.io' });
    await d.links.markAnswered(a.link.id, a.link.activation, d.clock.now());
    expect((await listActiveSurveys(d, query({ email: 'ada@x.io' }))).map((s) => s.link.channelId)).toEqual([sms.id]);
    d.clock.at = new Date(d.clock.at.getTime() + DAY_MS); // the SMS channel's TTL is one day: expiry is exclusive
    expect(await listActiveSurveys(d, query({ email: 'ada@x.io' }))).toEqual([]);
    await activate(web.id, { email: 'ada@x.io' });
    expect((await listActiveSurveys(d, query({ email: 'ada@x.io' }))).map((s) => s.link.channelId)).toEqual([web.id]);
  });

  it('keeps only the surveys of response_channel_id when given', async () => {
    const { d, web, sms, activate } = await setup();
    await activate(web.id, { email: 'ada@x.io' });
    await activate(sms.id, { email: 'ada@x.io' });
    const only = await listActiveSurveys(d, query({ email: 'ada@x.io', responseChannelId: sms.id.toUpperCase() }));
    expect(only.map((s) => s.link.channelId)).toEqual([sms.id]);
    await expect(listActiveSurveys(d, query({ email: 'ada@x.io', responseChannelId: 'nope' }))).rejects.toMatchObject({
      fields: { response_channel_id: 'must be a UUID' },
    });
  });

  it('names the three fields when no identifier is given, and never crosses accounts', async () => {
    const { d, web, activate } = await setup();
    await activate(web.id, { email: 'ada@x.io' });
    const err = (await listActiveSurveys(d, query({ tckn: '1' })).catch((e) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(Object.keys(err.fields).sort()).toEqual(['customer.email', 'customer.external_id', 'customer.phone_number']);
    expect(await listActiveSurveys(d, query({ accountId: 'other', email: 'ada@x.io' }))).toEqual([]);
  });
});
