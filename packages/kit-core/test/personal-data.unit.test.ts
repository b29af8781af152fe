import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isPersonalDataHash, isPersonalDataSealed, PersonalDataProtector } from '../src/personal-data.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);

describe('PersonalDataProtector', () => {
  it('hashes a value the same way each time, never containing it, and apart by purpose and key', () => {
    const p = new PersonalDataProtector(k1);
    const h = p.hash('10000000146', 'tckn');
    expect(h).toBe(p.hash('10000000146', 'tckn'));
    expect(isPersonalDataHash(h)).toBe(true);
    expect(h).not.toContain('10000000146');
    expect(p.hash('10000000146', 'phone')).not.toBe(h);
    expect(new PersonalDataProtector(k2).hash('10000000146', 'tckn')).not.toBe(h);
  });

  it('after a rotation, hashes under every key (current first), so old hashes are still found', () => {
    const before = new PersonalDataProtector(k1).hash('v', 'tckn');
    const rotated = new PersonalDataProtector(k2, [k1]);
    const all = rotated.hashes('v', 'tckn');
    expect(all).toHaveLength(2);
    expect(all[0]).toBe(rotated.hash('v', 'tckn'));
    expect(all).toContain(before);
    expect(rotated.isStale(before)).toBe(true);
    expect(rotated.isStale(all[0]!)).toBe(false);
  });

  it('seals and opens under its context; another context, a lost key or a changed byte does not open', () => {
    const p = new PersonalDataProtector(k1);
    const s = p.seal('10000000146', 'acc-1');
    expect(isPersonalDataSealed(s)).toBe(true);
    expect(s).not.toContain('10000000146');
    expect(p.open(s, 'acc-1')).toBe('10000000146');
    expect(() => p.open(s, 'acc-2')).toThrow();
    expect(new PersonalDataProtector(k2, [k1]).open(s, 'acc-1')).toBe('10000000146');
    expect(() => new PersonalDataProtector(k2).open(s, 'acc-1')).toThrow(/no longer has/);
    const bytes = s.split('.');
    const body = Buffer.from(bytes[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(() => p.open([...bytes.slice(0, 3), body.toString('base64url')].join('.'), 'acc-1')).toThrow();
  });

  it('opens a value sealed before the seal moved onto SecretCipher (the stored format is unchanged)', () => {
    const sealedBefore = 'pds1.k4bb06f8e4e3a.NbcTrTTk7YvtB4ir.mb_ROAt2edwDki5rMsvlN3ykUJjdMc7hAmzQ';
    expect(new PersonalDataProtector(randomBytes(32), [Buffer.alloc(32, 7)]).open(sealedBefore, 'acc-1')).toBe('12345678901');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new PersonalDataProtector(randomBytes(16))).toThrow(/32 bytes/);
  });
});
