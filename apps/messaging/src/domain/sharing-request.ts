import { errors, type AppError } from '@feedback/kit-core';

/** The sharing body (docs/api.md "SMS sharing"), shape-checked (phones are normalized later, one by one). */
export interface SharingRequest {
  phoneNumbers: unknown[];
  customAttributes: Record<string, Record<string, string>>;
  builtInResponses: Record<string, Record<string, string>>;
}

export interface SharingLimits {
  /** Hard cap on phone_numbers (docs/decisions.md "SMS sharing"; default 10,000): above it the request is refused. */
  maxPhones: number;
}

const MAX_ATTRIBUTES = 50;
const MAX_VALUE_LENGTH = 1_000;

/**
 * Validates the request body: `phone_numbers` an array of strings (a non-string entry is a
 * per-phone rejection, not a failed request, so one bad CRM row does not sink a batch),
 * `custom_attributes` / `built_in_responses` objects keyed by the phone as written whose values
 * are objects of scalar values. Errors name the field.
 */
export function parseSharingRequest(body: unknown, limits: SharingLimits): SharingRequest {
  if (!isPlainObject(body)) throw invalid('body', 'must be a JSON object');
  const phones = body.phone_numbers;
  if (!Array.isArray(phones)) throw invalid('phone_numbers', 'is required and must be an array of strings');
  if (phones.length === 0) throw invalid('phone_numbers', 'must not be empty');
  if (phones.length > limits.maxPhones) {
    throw invalid('phone_numbers', `has ${phones.length} entries; at most ${limits.maxPhones} are allowed per request (5,000 recommended)`);
  }
  return {
    phoneNumbers: phones,
    customAttributes: perPhoneObjects(body.custom_attributes, 'custom_attributes'),
    builtInResponses: perPhoneObjects(body.built_in_responses, 'built_in_responses'),
  };
}

function perPhoneObjects(value: unknown, field: string): Record<string, Record<string, string>> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw invalid(field, 'must be an object keyed by phone number');
  const out: Record<string, Record<string, string>> = {};
  for (const [phone, attrs] of Object.entries(value)) {
    const where = `${field}.${phone}`;
    if (!isPlainObject(attrs)) throw invalid(where, 'must be an object');
    const entries = Object.entries(attrs);
    if (entries.length > MAX_ATTRIBUTES) throw invalid(where, `has more than ${MAX_ATTRIBUTES} attributes`);
    const clean: Record<string, string> = {};
    for (const [name, v] of entries) {
      if (v === null || v === undefined) continue;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        throw invalid(`${where}.${name}`, 'must be a string, number or boolean');
      const s = String(v);
      if (s.length > MAX_VALUE_LENGTH) throw invalid(`${where}.${name}`, `must be at most ${MAX_VALUE_LENGTH} characters`);
      clean[name] = s;
    }
    out[phone] = clean;
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function invalid(field: string, why: string): AppError {
  return errors.invalid({ [field]: why });
}
