import { PersonalDataProtector } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { ErasedOptOuts } from '../src/opt-outs/adapters/erased-opt-outs.js';
import { eraseMessagingData } from '../src/erasure/domain/data-erasure.use-cases.js';
import type { MessagingPersonalData } from '../src/erasure/ports.js';
import { MemoryOptOuts } from './fakes/memory-deps.js';

const protector = new PersonalDataProtector(Buffer.alloc(32, 5));
const hashPhone = (p: string) => protector.hash(p, 'phone');
const ACCOUNT = 'acc-1';
const PHONE = '905321112233';

/** Messages and opt-outs in memory, with the adapter's rules: deletes by account and phone, opt-outs rewritten to the hash. */
function memoryStore(optOuts: MemoryOptOuts) {
  const messages = [
    { accountId: ACCOUNT, sharingId: 's1', phone: PHONE },
    { accountId: ACCOUNT, sharingId: 's2', phone: PHONE },
    { accountId: ACCOUNT, sharingId: 's1', phone: '905320000000' },
    { accountId: 'acc-2', sharingId: 's3', phone: PHONE },
  ];
  const forgotten: string[][] = [];
  const store: MessagingPersonalData = {
    async deleteMessagesTo(accountId, phones) {
      const hit = messages.filter((m) => m.accountId === accountId && phones.includes(m.phone));
      for (const m of hit) messages.splice(messages.indexOf(m), 1);
      return { deleted: hit.length, sharingIds: [...new Set(hit.map((m) => m.sharingId))] };
    },
    async forgetRecipients(_accountId, sharingIds) {
      forgotten.push(sharingIds);
    },
    async deleteHandedOver() {
      return 0;
    },
    async hashOptOuts(accountId, phones, hashOf) {
      let kept = 0;
      for (const p of phones) {
        const o = optOuts.items.find((x) => x.accountId === accountId && x.phone === p);
        if (o) o.phone = hashOf(p);
        if (optOuts.items.some((x) => x.accountId === accountId && x.phone === hashOf(p))) kept++;
      }
      return kept;
    },
  };
  return { store, messages, forgotten };
}

describe('data erasure (messaging)', () => {
  it('deletes the messages to the phones in the account, keeps the opt-out as a hash only, and counts the same opt-out when run again', async () => {
    const optOuts = new MemoryOptOuts();
    await optOuts.addMany({ accountId: ACCOUNT, phones: [PHONE], source: 'keyword', at: new Date() });
    const { store, messages, forgotten } = memoryStore(optOuts);
    const request = { erasureId: 'e1', accountId: ACCOUNT, phones: [PHONE] };

    expect(await eraseMessagingData({ personalData: store, hashPhone }, request)).toEqual({ messages: 2, optOutsKept: 1 });
    expect(messages.map((m) => `${m.accountId}/${m.phone}`)).toEqual([`${ACCOUNT}/905320000000`, `acc-2/${PHONE}`]);
    expect(forgotten).toEqual([['s1', 's2']]);
    expect(JSON.stringify(optOuts.items)).not.toContain(PHONE);

    expect(await eraseMessagingData({ personalData: store, hashPhone }, request)).toEqual({ messages: 0, optOutsKept: 1 });
  });

  it('an opt-out kept as a hash still suppresses the phone, and removing the phone removes it', async () => {
    const inner = new MemoryOptOuts();
    await inner.addMany({ accountId: ACCOUNT, phones: [hashPhone(PHONE), '905320000000'], source: 'api', at: new Date() });
    const optOuts = new ErasedOptOuts(inner, (p) => protector.hashes(p, 'phone'));

    expect(await optOuts.findOptedOut(ACCOUNT, [PHONE, '905320000000', '905329999999'])).toEqual(new Set([PHONE, '905320000000']));
    expect(await optOuts.findOptedOut('acc-2', [PHONE])).toEqual(new Set());
    expect(await optOuts.remove(ACCOUNT, PHONE)).toBe(true);
    expect(await optOuts.findOptedOut(ACCOUNT, [PHONE])).toEqual(new Set());
  });

  it('a hash made under the previous key still matches after a rotation', async () => {
    const before = new PersonalDataProtector(Buffer.alloc(32, 1));
    const after = new PersonalDataProtector(Buffer.alloc(32, 2), [Buffer.alloc(32, 1)]);
    const inner = new MemoryOptOuts();
    await inner.addMany({ accountId: ACCOUNT, phones: [before.hash(PHONE, 'phone')], source: 'api', at: new Date() });
    const optOuts = new ErasedOptOuts(inner, (p) => after.hashes(p, 'phone'));
    expect(await optOuts.findOptedOut(ACCOUNT, [PHONE])).toEqual(new Set([PHONE]));
  });
});
