import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/*
 * The one phone normalizer of the system (messaging should import the same rules when it moves
 * to a shared package): E.164 digits without "+", e.g. "905321234567". The full ("max")
 * metadata is used, so a number is valid only if its country's numbering plan allows it, not
 * merely if its length fits.
 */

export function isPhoneRegion(region: string): boolean {
  return isSupportedCountry(region);
}

/** Digits without "+", or null when the input is not a valid number. */
export function normalizePhone(raw: string, defaultRegion: string): string | null {
  const input = raw.trim();
  if (input === '' || input.length > 40) return null;
  const region = isSupportedCountry(defaultRegion) ? (defaultRegion as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(input, { defaultCountry: region });
  if (parsed?.isValid()) return parsed.number.slice(1);
  // CRM exports often hold international numbers without "+" or "00" (e.g. "447911123456").
  const digits = input.replace(/[\s().-]/g, '');
  if (/^[1-9]\d{7,14}$/.test(digits)) {
    const international = parsePhoneNumberFromString(`+${digits}`);
    if (international?.isValid()) return international.number.slice(1);
  }
  return null;
}
