import type { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { activateSurveyLink, type ActivationRequest } from '../src/domain/activation.use-cases.js';
import { createChannel } from '../src/domain/channel.use-cases.js';
import { DAY_MS } from '../src/domain/link.js';
import { memoryDeps, sampleFlow, testPersonalData, type MemoryDeps } from './fakes/memory-deps.js';

/** A TCKN as the customer keeps it: its keyed hash (sensitive-fields.ts). */
const tcknHash = (tckn: string) => testPersonalData.hash(tckn, 'customer.tckn');

async function setup(ttl = 0) {
  const d = memoryDeps();
  const flow = sampleFlow('acc');
  d.flows.items.push(flow);
  const channel = await createChannel(d, 'acc', {
    name: 'Web',
    nodeId: 'node-1',
    nodeName: 'Kadikoy',
    flowId: flow.id,
    linkTtlDays: ttl,
    kind: 'link',
  });
  return { d, flow, channel };
}

const request = (
  channelId: string,
  customer: Partial<ActivationRequest['customer']> = {},
  more: Partial<ActivationRequest> = {},
): ActivationRequest => ({
  accountId: 'acc',
  channelId,
  customer: { phoneNumber: '', email: '', externalId: '', name: '', schema: {}, ...customer },
  customAttributes: {},
  builtInResponses: {},
  ...more,
});

const advance = (d: MemoryDeps, ms: number) => (d.clock.at = new Date(d.clock.at.getTime() + ms));

describe('createChannel', () => {
  it('snapshots the flow name and takes the default link TTL', async () => {
    const { channel, flow } = await setup();
    expect(channel).toMatchObject({ flowName: flow.name, nodeName: 'Kadikoy', linkTtlDays: 7, kind: 'link' });
  });

  it("refuses another account's flow as not found, and bad fields by name", async () => {
    const { d, flow } = await setup();
    await expect(
      createChannel(d, 'other', { name: 'x', nodeId: 'n', nodeName: 'N', flowId: flow.id, linkTtlDays: 1, kind: 'sms' }),
    ).rejects.toMatchObject({
      kind: 'not_found',
      fields: { flow_id: flow.id },
    });
    const err = (await createChannel(d, 'acc', {
      name: ' ',
      nodeId: '',
      nodeName: '',
      flowId: 'nope',
      linkTtlDays: 400,
      kind: 'link',
    }).catch((e) => e)) as AppError;
    expect(Object.keys(err.fields).sort()).toEqual(['flow_id', 'link_ttl_days', 'name', 'node_id', 'node_name']);
  });
});

describe('activateSurveyLink', () => {
  it("creates the customer and a link that expires after the channel's TTL", async () => {
    const { d, channel } = await setup(3);
    const a = await activateSurveyLink(
      d,
      request(channel.id, { phoneNumber: '0532 123 45 67', name: 'Ada' }, { builtInResponses: { customerDetailInfo1: 'VIP' } }),
    );
    expect(a.created).toBe(true);
    expect(a.customer).toMatchObject({ phone: '905321234567', name: 'Ada' });
    expect(a.url).toBe(`https://feedback.example.com/s/${a.link.token}`);
    expect(a.link).toMatchObject({ activation: 1, answeredAt: null, nodeId: 'node-1', builtInResponses: { customerDetailInfo1: 'VIP' } });
    expect(a.link.expiresAt.getTime() - a.link.activatedAt.getTime()).toBe(3 * DAY_MS);
  });

  it('re-activation keeps the link and token, moves activated_at and expires_at, clears answered_at', async () => {
    const { d, channel } = await setup();
    const first = await activateSurveyLink(d, request(channel.id, { email: 'a@x.io' }));
    await d.links.markAnswered(first.link.id, first.link.activation, d.clock.now());
    advance(d, DAY_MS);
    const again = await activateSurveyLink(d, request(channel.id, { email: 'A@X.IO' }));
    expect(again.created).toBe(false);
    expect(again.link).toMatchObject({ id: first.link.id, token: first.link.token, activation: 2, answeredAt: null });
    expect(again.link.activatedAt.getTime() - first.link.activatedAt.getTime()).toBe(DAY_MS);
    expect(again.link.expiresAt.getTime() - first.link.expiresAt.getTime()).toBe(DAY_MS);
    expect(d.links.items).toHaveLength(1);
  });

  it('gives one customer one link per channel', async () => {
    const { d, channel, flow } = await setup();
    const other = await createChannel(d, 'acc', {
      name: 'SMS',
      nodeId: 'node-1',
      nodeName: 'Kadikoy',
      flowId: flow.id,
      linkTtlDays: 0,
      kind: 'sms',
    });
    const a = await activateSurveyLink(d, request(channel.id, { externalId: 'e1' }));
    const b = await activateSurveyLink(d, request(other.id, { externalId: 'e1' }));
    expect(b.customer.id).toBe(a.customer.id);
    expect(b.link.id).not.toBe(a.link.id);
    expect(b.link.token).not.toBe(a.link.token);
  });

  it('takes name, email and external_id from custom attributes when the customer lacks them', async () => {
    const { d, channel } = await setup();
    const a = await activateSurveyLink(
      d,
      request(
        channel.id,
        { phoneNumber: '5321234567' },
        { customAttributes: { name: 'Can', email: 'can@x.io', external_id: 'c-1', city: 'Bursa' } },
      ),
    );
    expect(a.customer).toMatchObject({ name: 'Can', email: 'can@x.io', externalId: 'c-1', attributes: { city: 'Bursa', name: 'Can' } });
  });

  it("stores a custom attribute named like a schema field (any case) in the customer's schema; an explicit schema wins", async () => {
    const { d, channel } = await setup();
    const a = await activateSurveyLink(
      d,
      request(channel.id, { phoneNumber: '5321234567' }, { customAttributes: { tckn: ' 10000000146 ', city: 'Bursa' } }),
    );
    expect(a.customer.schema).toEqual({ TCKN: tcknHash('10000000146') });
    const b = await activateSurveyLink(
      d,
      request(channel.id, { phoneNumber: '5329876543', schema: { TCKN: '20000000046' } }, { customAttributes: { TCKN: '30000000046' } }),
    );
    expect(b.customer.schema).toEqual({ TCKN: tcknHash('20000000046') });
    d.config.customerSchemaAttributes = ['VKN'];
    const c = await activateSurveyLink(
      d,
      request(channel.id, { phoneNumber: '5551112233' }, { customAttributes: { TCKN: '10000000146', vkn: '1234567890' } }),
    );
    expect(c.customer.schema).toEqual({ VKN: '1234567890' });
  });

  it('keeps the TCKN and the fields the deployment names sensitive only as keyed hashes, in the schema and the attributes', async () => {
    const { d, channel } = await setup();
    d.config.customerSchemaAttributes = ['TCKN', 'VKN'];
    d.config.sensitiveAttributes = ['vkn', 'mother_maiden_name'];
    const a = await activateSurveyLink(
      d,
      request(
        channel.id,
        { phoneNumber: '5321234567' },
        { customAttributes: { Tckn: '10000000146', VKN: '1234567890', mother_maiden_name: 'Yılmaz', city: 'Bursa' } },
      ),
    );
    const vkn = testPersonalData.hash('1234567890', 'customer.vkn');
    expect(a.customer.schema).toEqual({ TCKN: tcknHash('10000000146'), VKN: vkn });
    expect(a.customer.attributes).toEqual({
      Tckn: tcknHash('10000000146'),
      VKN: vkn,
      mother_maiden_name: testPersonalData.hash('Yılmaz', 'customer.mother_maiden_name'),
      city: 'Bursa',
    });
    expect(JSON.stringify(d.customers.items)).not.toMatch(/10000000146|1234567890|Yılmaz/);
  });

  it('refuses a request without identifiers, with a malformed one, or for a foreign channel', async () => {
    const { d, channel } = await setup();
    const none = (await activateSurveyLink(d, request(channel.id)).catch((e) => e)) as AppError;
    expect(Object.keys(none.fields).sort()).toEqual(['customer.email', 'customer.external_id', 'customer.phone_number']);
    await expect(activateSurveyLink(d, request(channel.id, { phoneNumber: '123' }))).rejects.toMatchObject({
      fields: { 'customer.phone_number': expect.any(String) },
    });
    await expect(activateSurveyLink(d, request(channel.id, { email: 'nope' }))).rejects.toMatchObject({
      fields: { 'customer.email': expect.any(String) },
    });
    await expect(activateSurveyLink(d, request(channel.id, { email: 'a@x.io', schema: { 'a.b': '1' } }))).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(activateSurveyLink(d, { ...request(channel.id, { email: 'a@x.io' }), accountId: 'other' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { channel_id: channel.id },
    });
    expect(d.customers.items).toHaveLength(0);
  });
});
