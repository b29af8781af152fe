import { describe, expect, it } from 'vitest';
import { isPhoneRegion, normalizePhone } from '../src/domain/phone.js';

describe('normalizePhone', () => {
  it('writes every common notation of one number as the same E.164 digits', () => {
    for (const raw of ['5321234567', '0532 123 45 67', '+90 (532) 123-45-67', '00905321234567', '905321234567']) {
      expect(normalizePhone(raw, 'TR'), raw).toBe('905321234567');
    }
  });

  it('uses the default region only for numbers without a country code', () => {
    expect(normalizePhone('+44 7911 123456', 'TR')).toBe('447911123456');
    expect(normalizePhone('07911 123456', 'GB')).toBe('447911123456');
    expect(normalizePhone('447911123456', 'TR')).toBe('447911123456');
  });

  it('refuses what no numbering plan allows', () => {
    for (const raw of ['12345', 'call me', '', '+90 999 999 99 99', '1'.repeat(41)]) expect(normalizePhone(raw, 'TR'), raw).toBeNull();
  });

  it('knows the region codes', () => {
    expect(isPhoneRegion('TR')).toBe(true);
    expect(isPhoneRegion('XX')).toBe(false);
  });
});
