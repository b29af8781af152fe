import { isSupportedCountry, parsePhoneNumberFromString, validatePhoneNumberLength, type CountryCode } from 'libphonenumber-js/max';

/*
 * The one phone normalizer of the system: survey stores customers' and answers' phones with it,
 * messaging the phones it sends to, so a phone stored by one finds the customer in the other.
 * Output: E.164 digits without "+" ("905321234567"). The full ("max") metadata is used, so a
 * number is valid only if its country's numbering plan allows it, not merely if its length fits.
 * International numbers written without "+" or "00" are accepted, as CRM exports hold them.
 * A refusal says why (messaging reports the reason per phone; survey only says "not valid").
 */

export type PhoneRejection =
  | 'not_a_string'
  | 'empty'
  | 'too_long_input'
  | 'not_a_number'
  | 'invalid_country_code'
  | 'too_short'
  | 'too_long'
  | 'invalid_length'
  | 'invalid_number';

export type PhoneResult = { ok: true; phone: string } | { ok: false; reason: PhoneRejection };

/** An ISO 3166-1 region code the metadata knows, usable as the default region. */
export function isPhoneRegion(region: string): boolean {
  return isSupportedCountry(region);
}

/**
 * `defaultRegion` is used only for numbers without a country code; an unknown region is ignored
 * (then only international numbers pass).
 */
export function normalizePhone(raw: unknown, defaultRegion: string): PhoneResult {
  if (typeof raw !== 'string') return { ok: false, reason: 'not_a_string' };
  const input = raw.trim();
  if (input === '') return { ok: false, reason: 'empty' };
  // Bounds the parser's work on arbitrary input; no written phone number is this long.
  if (input.length > 40) return { ok: false, reason: 'too_long_input' };
  const region = isSupportedCountry(defaultRegion) ? (defaultRegion as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(input, { defaultCountry: region });
  if (parsed?.isValid()) return { ok: true, phone: parsed.number.slice(1) };
  // CRM exports often hold international numbers without "+" or "00" (e.g. "447911123456").
  const digits = input.replace(/[\s().-]/g, '');
  if (/^[1-9]\d{7,14}$/.test(digits)) {
    const international = parsePhoneNumberFromString(`+${digits}`);
    if (international?.isValid()) return { ok: true, phone: international.number.slice(1) };
  }
  return { ok: false, reason: whyInvalid(input, region) };
}

function whyInvalid(input: string, region: CountryCode | undefined): PhoneRejection {
  switch (validatePhoneNumberLength(input, { defaultCountry: region })) {
    case 'NOT_A_NUMBER':
      return 'not_a_number';
    case 'INVALID_COUNTRY':
      return 'invalid_country_code';
    case 'TOO_SHORT':
      return 'too_short';
    case 'TOO_LONG':
      return 'too_long';
    case 'INVALID_LENGTH':
      return 'invalid_length';
    default:
      return 'invalid_number';
  }
}

export interface NormalizedList {
  /** In the order given; `input` is the phone as the caller wrote it (the key of its attributes). */
  accepted: { phone: string; input: string }[];
  rejected: { phone: string; reason: PhoneRejection }[];
  /** Entries dropped because an earlier entry normalized to the same number. */
  duplicates: number;
}

/**
 * Normalizes a list: invalid entries are rejected with a reason, later duplicates counted and
 * dropped. `seen` carries the phones of earlier slices of the same list.
 */
export function normalizePhoneList(inputs: readonly unknown[], defaultRegion: string, seen = new Set<string>()): NormalizedList {
  const out: NormalizedList = { accepted: [], rejected: [], duplicates: 0 };
  for (const raw of inputs) {
    const r = normalizePhone(raw, defaultRegion);
    if (!r.ok) {
      out.rejected.push({ phone: typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? String(raw)), reason: r.reason });
    } else if (seen.has(r.phone)) {
      out.duplicates++;
    } else {
      seen.add(r.phone);
      out.accepted.push({ phone: r.phone, input: raw as string });
    }
  }
  return out;
}
