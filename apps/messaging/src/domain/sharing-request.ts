import { errors, type AppError } from '@feedback/kit-core';

/**
 * The sharing request (docs/api.md "SMS sharing"), typed: the gRPC handler decodes it from
 * CreateSmsSharingRequest, a CSV workflow makes it from a file's rows. Phones are as the caller
 * wrote them (normalized later, one by one); attributes and built-in responses are keyed by the
 * phone as written.
 */
export interface SharingRequest {
  phoneNumbers: string[];
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
 * The rules of a request the service enforces itself, whoever calls it (the gateway checks the
 * body's shape, but another gRPC caller may not): at least one phone and at most `maxPhones`, at
 * most 50 attributes per phone, values of at most 1,000 characters. Errors are INVALID_ARGUMENT
 * naming the field as the API's body does (`phone_numbers`, `custom_attributes.<phone>.<name>`).
 */
export function checkSharingRequest(request: SharingRequest, limits: SharingLimits): void {
  const phones = request.phoneNumbers;
  if (phones.length === 0) throw invalid('phone_numbers', 'must not be empty');
  if (phones.length > limits.maxPhones) {
    throw invalid('phone_numbers', `has ${phones.length} entries; at most ${limits.maxPhones} are allowed per request (5,000 recommended)`);
  }
  checkPerPhone(request.customAttributes, 'custom_attributes');
  checkPerPhone(request.builtInResponses, 'built_in_responses');
}

function checkPerPhone(value: Record<string, Record<string, string>>, field: string): void {
  for (const [phone, attrs] of Object.entries(value)) {
    const where = `${field}.${phone}`;
    const entries = Object.entries(attrs);
    if (entries.length > MAX_ATTRIBUTES) throw invalid(where, `has more than ${MAX_ATTRIBUTES} attributes`);
    for (const [name, v] of entries) {
      if (v.length > MAX_VALUE_LENGTH) throw invalid(`${where}.${name}`, `must be at most ${MAX_VALUE_LENGTH} characters`);
    }
  }
}

function invalid(field: string, why: string): AppError {
  return errors.invalid({ [field]: why });
}
