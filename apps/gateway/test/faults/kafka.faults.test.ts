import { describe, expect, it } from 'vitest';
import { restart, signal, sleep, stackUnderTest } from './fault-kit.js';
import { Admin, newTenant, randomPhone } from './fault-load.js';
import { faultUnderLoad } from './fault-scenario.js';
import { outboxCounts } from './fault-verify.js';

// Dispatch runs at some 5-10 SMS/s on the 2-core reference machine; Kafka restarts in about 30 s.
const PHONES = 200;

describe('kill -9 of Kafka', () => {
  it('under load: nothing acknowledged lost, clicks counted once, only 503s in the error shape meanwhile, recovered', async () => {
    const { problems, lost } = await faultUnderLoad('kafka');
    expect.soft(problems, 'answers clients should not have seen').toEqual([]);
    expect.soft(lost, 'acknowledged and lost').toEqual([]);
  });

  // The "restart Kafka" test: the dispatch events of a sharing are half consumed when the
  // broker dies; after its restart every phone reaches the provider, and only once.
  it(`during an SMS sharing's dispatch: each of ${PHONES} phones handed to the provider exactly once`, async () => {
    const stack = stackUnderTest();
    const t = await newTenant(stack, 'kafka-sms');
    const phones = new Set<string>();
    while (phones.size < PHONES) phones.add(randomPhone());
    const auth = { authorization: `Bearer ${t.apiToken}` };
    const created = await fetch(`${stack.base_url}/v1/sms_campaigns/${t.campaignId}/sms_sharings`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ phone_numbers: [...phones] }),
    });
    const sharing = (await created.json()) as { id: string; accepted: number };
    expect(created.status).toBe(200);
    expect(sharing.accepted).toBe(PHONES);
    const sent = async () => {
      const res = await fetch(`${stack.base_url}/v1/sms_sharings/${sharing.id}`, { headers: auth });
      const body = (await res.json()) as { recipients?: { status: string }[] };
      return res.status === 200 ? body.recipients!.filter((r) => r.status !== 'queued' && r.status !== 'sending').length : -1;
    };
    let atKill = 0;
    for (const deadline = Date.now() + 60_000; (atKill = await sent()) < 10; await sleep(50)) {
      if (Date.now() > deadline) throw new Error(`dispatch did not start within 60 s (${atKill} sent)`);
    }
    await signal('kafka', 'SIGKILL');
    expect(atKill, 'the kill came after the last message: nothing was left to test').toBeLessThan(PHONES);
    await restart('kafka');
    let done = 0;
    for (const deadline = Date.now() + 120_000; (done = await sent()) < PHONES && Date.now() < deadline;) await sleep(500);
    expect(done, `${atKill} sent at the kill`).toBe(PHONES);
    await sleep(1_000); // a duplicate would come right after the last first one
    const counts = await outboxCounts(new Admin(stack), t.accountId);
    const digits = [...phones].map((p) => p.replace(/\D/g, ''));
    expect(digits.filter((p) => counts.get(p) !== 1)).toEqual([]);
    expect(counts.size).toBe(PHONES);
    console.log(`kafka kill during dispatch: ${atKill} of ${PHONES} sent at the kill`);
  });
});
