/**
 * The one rule for customer attributes (an SMS sharing's custom attributes and built-in
 * responses, a preview's, a CSV file's columns, a survey link's): the gateway, messaging and
 * the survey service all ask these functions, so nothing accepted at the edge is refused when
 * the survey service stores it at dispatch.
 */
export const ATTRIBUTE_LIMITS = {
  /** Names are stored as MongoDB field names on the customer and the link. */
  nameLength: 64,
  valueLength: 1_000,
  /** The customer fields an attribute of that name fills (the survey service's fallbacks). */
  customerNameLength: 200,
  externalIdLength: 200,
  emailLength: 254,
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why `name` cannot be an attribute name, or undefined: 1-64 characters, no dot, no leading "$", no control character. */
export function attributeNameProblem(name: string): string | undefined {
  if (
    name.length < 1 ||
    name.length > ATTRIBUTE_LIMITS.nameLength ||
    name.startsWith('$') ||
    name.includes('.') ||
    [...name].some((c) => c.charCodeAt(0) < 32)
  )
    return `name must be 1-${ATTRIBUTE_LIMITS.nameLength} characters, without dots, a leading $ or control characters`;
  return undefined;
}

/** Whether an e-mail address is one the survey service stores (trimmed first). */
export function isEmailAddress(email: string): boolean {
  return email.length <= ATTRIBUTE_LIMITS.emailLength && EMAIL.test(email);
}

/**
 * Why a custom attribute's value cannot be taken, or undefined: every value at most 1,000
 * characters; the ones the survey service copies onto the customer (`name`, `email`,
 * `external_id`, trimmed) within that field's own rule.
 */
export function attributeValueProblem(name: string, value: string): string | undefined {
  if (value.length > ATTRIBUTE_LIMITS.valueLength) return `must be at most ${ATTRIBUTE_LIMITS.valueLength} characters`;
  const v = value.trim();
  if (name === 'name' && v.length > ATTRIBUTE_LIMITS.customerNameLength)
    return `must be at most ${ATTRIBUTE_LIMITS.customerNameLength} characters (the customer's name)`;
  if (name === 'external_id' && v.length > ATTRIBUTE_LIMITS.externalIdLength)
    return `must be at most ${ATTRIBUTE_LIMITS.externalIdLength} characters`;
  if (name === 'email' && v && !isEmailAddress(v)) return 'is not an e-mail address';
  return undefined;
}

/** The first problem of an attribute (its name, then its value), or undefined. */
export function attributeProblem(name: string, value: string): string | undefined {
  return attributeNameProblem(name) ?? attributeValueProblem(name, value);
}
