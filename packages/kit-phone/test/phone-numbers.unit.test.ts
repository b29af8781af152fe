import { describe, expect, it } from 'vitest';
import { isPhoneRegion, normalizePhone, normalizePhoneList } from '../src/index.js';

describe('phone normalization', () => {
  it.each([
    ['+90 532 123 45 67', '905321234567'],
    ['0532 123 45 67', '905321234567'],
    ['(0532) 123-45-67', '905321234567'],
    ['5321234567', '905321234567'],
    ['0090 532 123 45 67', '905321234567'],
    ['00905321234567', '905321234567'],
    ['+90 (532) 123-45-67', '905321234567'],
    ['905321234567', '905321234567'], // international without "+", as CRM exports hold it
    ['+1 202 555 0100', '12025550100'],
    ['447911123456', '447911123456'],
    ['+44 7911 123456', '447911123456'], // the default region does not override a country code
  ])('%s → %s', (input, expected) => {
    expect(normalizePhone(input, 'TR')).toEqual({ ok: true, phone: expected });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['12', 'too_short'],
    ['12345', 'too_short'],
    ['+999 123456', 'invalid_country_code'],
    ['hello', 'not_a_number'],
    ['call me', 'not_a_number'],
    ['+90 532 123 45 6', 'invalid_length'],
    ['0532 123 45 67 890 123', 'too_long'],
    ['+90 100 123 45 67', 'invalid_number'], // right length, no such number range
    ['+90 999 999 99 99', 'invalid_number'],
    ['1'.repeat(41), 'too_long_input'],
  ])('%j is rejected as %s', (input, reason) => {
    expect(normalizePhone(input, 'TR')).toEqual({ ok: false, reason });
  });

  it('rejects what is not a string', () => {
    expect(normalizePhone(5321234567, 'TR')).toEqual({ ok: false, reason: 'not_a_string' });
  });

  it('uses the default region for national numbers', () => {
    expect(normalizePhone('020 7946 0958', 'GB')).toEqual({ ok: true, phone: '442079460958' });
    expect(normalizePhone('07911 123456', 'GB')).toEqual({ ok: true, phone: '447911123456' });
  });

  it('knows the region codes', () => {
    expect(isPhoneRegion('TR')).toBe(true);
    expect(isPhoneRegion('XX')).toBe(false);
  });
});

describe('phone lists', () => {
  it('keeps the first of each number, counts duplicates after normalization, and says why others were rejected', () => {
    const r = normalizePhoneList(['+90 532 123 45 67', '0532 123 45 67', 'abc', '905321234567', '05551112233', 42, '05551112233'], 'TR');
    expect(r.accepted).toEqual([
      { phone: '905321234567', input: '+90 532 123 45 67' },
      { phone: '905551112233', input: '05551112233' },
    ]);
    expect(r.duplicates).toBe(3);
    expect(r.rejected).toEqual([
      { phone: 'abc', reason: 'not_a_number' },
      { phone: '42', reason: 'not_a_string' },
    ]);
  });

  it('counts a phone seen in an earlier slice of the same list as a duplicate', () => {
    const seen = new Set<string>();
    expect(normalizePhoneList(['0532 123 45 67'], 'TR', seen).accepted).toEqual([{ phone: '905321234567', input: '0532 123 45 67' }]);
    const second = normalizePhoneList(['+90 532 123 45 67', '+44 7911 123456'], 'TR', seen);
    expect(second.duplicates).toBe(1);
    expect(second.accepted).toEqual([{ phone: '447911123456', input: '+44 7911 123456' }]);
  });
});
