import { describe, expect, it } from 'vitest';
import { deliveryErrorOf, publishOwedReports, receiveDeliveryReport, type DeliveryRule } from '../src/status/domain/delivery-report.js';
import type { ReportRule } from '../src/shared/domain/sms-message.js';
import { sendOne, MemoryMessages, MemoryReportEvents, ScriptedProvider } from './fakes/memory-deps.js';

const NOW = new Date('2026-11-28T10:00:00Z');
const KANNEL: ReportRule = { statusParam: 'status', delivered: ['1'], failed: ['2', '16'], errorParam: 'answer' };
const cmd = { accountId: 'acc', sharingId: 's1', campaignId: 'c', phone: '905321234567', text: 'hi' };
const A = 's1.905321234567';
const B = 's1.905321234568';

async function setup() {
  let now = NOW;
  const messages = new MemoryMessages();
  const clock = { now: () => now };
  for (const phone of ['905321234567', '905321234568'])
    await sendOne({ messages, provider: new ScriptedProvider([{ outcome: 'accepted' }]), clock }, { ...cmd, phone });
  const events = new MemoryReportEvents();
  return {
    deps: { messages, reportEvents: events, clock },
    messages,
    events,
    later: (ms: number) => void (now = new Date(now.getTime() + ms)),
  };
}

describe('delivery reports as sms.status events', () => {
  it('publish one event per message and status, with the error of a failing report; repeats and late reports publish nothing', async () => {
    const { deps, messages, events } = await setup();
    const report = (messageId: string, fields: Record<string, unknown>) => receiveDeliveryReport(deps, { messageId, fields }, KANNEL);

    expect(await report(A, { status: '8' })).toBe('progress');
    expect(events.events).toEqual([]);
    expect(await report(A, { status: '1' })).toBe('applied');
    expect(await report(A, { status: '1' })).toBe('ignored');
    expect(await report(A, { status: '2' })).toBe('ignored');
    const receipt = 'id:77 sub:001 dlvrd:000 submit date:2611281000 done date:2611281001 stat:UNDELIV err:001 text:Merhaba Ayse';
    expect(await report(B, { status: '2', answer: receipt })).toBe('applied');
    expect(await report(B, { status: '2', answer: receipt })).toBe('ignored');

    expect(events.events.map((e) => e.eventId)).toEqual([`${A}:delivered`, `${B}:failed`]);
    expect(events.events[0]!.message.deliveryError).toBeUndefined();
    const error = { status: '2', code: '001', description: 'UNDELIV' };
    expect(events.events[1]!.message.deliveryError).toEqual(error);
    expect((await messages.findById(B))?.deliveryError).toEqual(error);
    // Published: nothing left for the relay.
    expect(messages.reportsOwed.size).toBe(0);
  });

  it('of reports racing for one message, only the one that changed the record publishes', async () => {
    const { deps, events } = await setup();
    const outcomes = await Promise.all(
      ['2', '1', '2', '16'].map((status) => receiveDeliveryReport(deps, { messageId: A, fields: { status } }, KANNEL)),
    );
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
    expect(events.events).toHaveLength(1);
  });

  it('leave an event whose publish failed to the relay, which publishes it once after its grace', async () => {
    const { deps, messages, events, later } = await setup();
    events.failNext = 1;
    expect(await receiveDeliveryReport(deps, { messageId: A, fields: { status: '16' } }, KANNEL)).toBe('applied_unpublished');
    expect((await messages.findById(A))?.status).toBe('failed');
    expect(events.events).toEqual([]);

    // Within the grace the report's own publish may still be under way: the relay leaves it.
    expect(await publishOwedReports(deps, { graceMs: 10_000, limit: 10 })).toBe(false);
    expect(events.events).toEqual([]);
    later(10_000);
    await publishOwedReports(deps, { graceMs: 10_000, limit: 10 });
    expect(events.events.map((e) => e.eventId)).toEqual([`${A}:failed`]);
    expect(events.events[0]!.message.deliveryError).toEqual({ status: '16', code: null, description: null });
    later(10_000);
    await publishOwedReports(deps, { graceMs: 10_000, limit: 10 });
    expect(events.events).toHaveLength(1);
  });
});

describe("a failing report's error", () => {
  const rule = (r: Partial<DeliveryRule> = {}): DeliveryRule => ({ delivered: ['DELIVRD'], failed: ['UNDELIV'], ...r });

  it('is the status code alone without fields named by the rule', () => {
    expect(deliveryErrorOf(' 2 ', { err: '5' }, KANNEL_LIKE())).toEqual({ status: '2', code: null, description: null });
  });

  it('takes the code and description fields the rule names, as they came (capped, control characters dropped)', () => {
    const fields = { error: 'EC_ABSENT_SUBSCRIBER', reason: 'Absent\nsubscriber', other: 'x' };
    expect(deliveryErrorOf('UNDELIV', fields, rule({ errorParam: 'error', descriptionParam: 'reason' }))).toEqual({
      status: 'UNDELIV',
      code: 'EC_ABSENT_SUBSCRIBER',
      description: 'Absent subscriber',
    });
    expect(deliveryErrorOf('UNDELIV', { error: 'x'.repeat(100) }, rule({ errorParam: 'error' })).code).toHaveLength(64);
    expect(deliveryErrorOf('UNDELIV', { error: 34 }, rule({ errorParam: 'error' })).code).toBe('34');
  });

  it("reads an SMPP receipt's err: and stat:, never its text:", () => {
    const answer = 'id:9 sub:001 dlvrd:000 submit date:2611281000 done date:2611281001 stat:REJECTD err:0B1 text:Merhaba Ayşe';
    const e = deliveryErrorOf('16', { answer }, KANNEL_LIKE());
    expect(e).toEqual({ status: '16', code: '0B1', description: 'REJECTD' });
    expect(JSON.stringify(e)).not.toContain('Merhaba');
  });
});

function KANNEL_LIKE(): DeliveryRule {
  return { delivered: ['1'], failed: ['2', '16'], errorParam: 'answer' };
}
