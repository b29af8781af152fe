import { PersonalDataProtector } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { deliverySubjects, eraseWebhookDeliveries, type DeliveryEraser } from '../src/domain/data-erasure.use-cases.js';
import { bodyOf, smsStatusEvent, surveyAnsweredEvent } from '../src/domain/event-mapping.js';

const protector = new PersonalDataProtector(Buffer.alloc(32, 9));
const hashesOf = (body: string) => deliverySubjects(body).map((s) => protector.hash(s.value, s.kind));
const now = new Date('2026-11-28T05:00:00.000Z');

const answered = (customerId: string) =>
  bodyOf(
    surveyAnsweredEvent(
      `e-${customerId}`,
      {
        id: 'r1',
        accountId: 'acc-1',
        flowId: 'f',
        channelId: 'c',
        nodeId: 'n',
        customerId,
        answers: [],
        builtInResponses: {},
        answeredAt: now.toISOString(),
      },
      now,
    ),
  );
const smsStatus = (phone: string) =>
  bodyOf(
    smsStatusEvent(
      'e-sms',
      { messageId: 'm', sharingId: 's', accountId: 'acc-1', phone, status: 'delivered', error: '', at: now.toISOString() },
      now,
    )!,
  );

class MemoryDeliveries implements DeliveryEraser {
  constructor(readonly items: { accountId: string; subjects: string[] }[]) {}
  async deleteBySubjects(accountId: string, hashes: string[]) {
    const hit = this.items.filter((d) => d.accountId === accountId && d.subjects.some((s) => hashes.includes(s)));
    for (const d of hit) this.items.splice(this.items.indexOf(d), 1);
    return hit.length;
  }
}

describe('data erasure (webhooks)', () => {
  it('names the customer of an answer and the phone of an SMS status, and nobody for other events', () => {
    expect(deliverySubjects(answered('cust-1'))).toEqual([{ kind: 'customer_id', value: 'cust-1' }]);
    expect(deliverySubjects(smsStatus('905321112233'))).toEqual([{ kind: 'phone', value: '905321112233' }]);
    expect(deliverySubjects(JSON.stringify({ type: 'file.expired', data: { file_id: 'f' } }))).toEqual([]);
    expect(deliverySubjects('not json')).toEqual([]);
  });

  it("deletes the account's deliveries about the person's customers and phones, none the second time", async () => {
    const deliveries = new MemoryDeliveries([
      { accountId: 'acc-1', subjects: hashesOf(answered('cust-1')) },
      { accountId: 'acc-1', subjects: hashesOf(smsStatus('905321112233')) },
      { accountId: 'acc-1', subjects: hashesOf(answered('cust-2')) },
      { accountId: 'acc-2', subjects: hashesOf(smsStatus('905321112233')) },
    ]);
    const deps = { deliveries, hashes: (v: string, p: string) => protector.hashes(v, p) };
    const request = { accountId: 'acc-1', customerIds: ['cust-1'], phones: ['905321112233'] };
    expect(await eraseWebhookDeliveries(deps, request)).toBe(2);
    expect(deliveries.items).toHaveLength(2);
    expect(await eraseWebhookDeliveries(deps, request)).toBe(0);
  });
});
