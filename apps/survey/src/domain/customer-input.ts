import { ATTRIBUTE_LIMITS, attributeNameProblem, errors, isEmailAddress } from '@feedback/kit-core';
import { normalizePhone } from '@feedback/kit-phone';
import type { Identifiers } from './customer.js';

export interface CustomerInput {
  phoneNumber: string;
  email: string;
  externalId: string;
  name: string;
  schema: Record<string, string>;
}

/** kit-core's attribute rule (customer-attributes.ts), which messaging and the gateway check at accept time too. */
export const CUSTOMER_LIMITS = {
  externalIdLength: ATTRIBUTE_LIMITS.externalIdLength,
  emailLength: ATTRIBUTE_LIMITS.emailLength,
  nameLength: ATTRIBUTE_LIMITS.customerNameLength,
  attributes: 100,
  attributeKey: ATTRIBUTE_LIMITS.nameLength,
  attributeValue: ATTRIBUTE_LIMITS.valueLength,
};

/**
 * Normalized identifiers, or INVALID_ARGUMENT naming each malformed one under `prefix`
 * (e.g. customer.phone_number). Empty strings are "not given".
 */
export function parseIdentifiers(
  input: Pick<CustomerInput, 'phoneNumber' | 'email' | 'externalId'>,
  phoneRegion: string,
  prefix = 'customer.',
): Identifiers {
  const problems: Record<string, string> = {};
  const ids: Identifiers = {};
  const externalId = input.externalId.trim();
  if (externalId.length > CUSTOMER_LIMITS.externalIdLength)
    problems[`${prefix}external_id`] = `must be at most ${CUSTOMER_LIMITS.externalIdLength} characters`;
  else if (externalId) ids.externalId = externalId;
  const email = input.email.trim();
  if (email && !isEmailAddress(email)) problems[`${prefix}email`] = 'is not an e-mail address';
  else if (email) ids.email = email;
  if (input.phoneNumber.trim()) {
    const phone = normalizePhone(input.phoneNumber, phoneRegion);
    if (phone.ok) ids.phone = phone.phone;
    else problems[`${prefix}phone_number`] = 'is not a valid phone number';
  }
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  return ids;
}

export function requireSomeIdentifier(ids: Identifiers, prefix = 'customer.'): void {
  if (ids.externalId || ids.email || ids.phone) return;
  const why = 'give at least one of phone_number, email, external_id';
  throw errors.invalid({ [`${prefix}phone_number`]: why, [`${prefix}email`]: why, [`${prefix}external_id`]: why });
}

/** Attribute maps stored on the customer or link: bounded, and safe as field names. */
export function checkAttributes(field: string, attrs: Record<string, string>): Record<string, string> {
  const entries = Object.entries(attrs ?? {});
  const problems: Record<string, string> = {};
  if (entries.length > CUSTOMER_LIMITS.attributes) problems[field] = `must have at most ${CUSTOMER_LIMITS.attributes} entries`;
  for (const [k, v] of entries) {
    const nameProblem = attributeNameProblem(k);
    if (nameProblem) problems[`${field}.${k}`] = nameProblem;
    else if (v.length > CUSTOMER_LIMITS.attributeValue)
      problems[`${field}.${k}`] = `must be at most ${CUSTOMER_LIMITS.attributeValue} characters`;
  }
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  return Object.fromEntries(entries);
}
