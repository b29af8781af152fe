import { sensitiveNames, type PersonalDataProtector } from '@feedback/kit-core';

/**
 * Custom attributes that never rest in clear in this service's documents: the TCKN always, and
 * the deployment's SENSITIVE_CUSTOMER_ATTRIBUTES (names compared without case). The survey
 * service keeps their keyed hashes on the customer; here they are needed only to render and
 * activate the first messages, which carry them in their sms.dispatch events.
 */
export interface SensitiveAttributes {
  /** Lower-cased. */
  names: ReadonlySet<string>;
  /** kit-core's PersonalDataProtector: a deferred sharing's values are sealed until released. */
  box: Pick<PersonalDataProtector, 'seal' | 'open'>;
}

export function sensitiveAttributes(box: SensitiveAttributes['box'], configured: readonly string[]): SensitiveAttributes {
  return { names: sensitiveNames(configured), box };
}

/** [the attributes that may be stored, the sensitive ones]. */
export function splitSensitive(
  attributes: Readonly<Record<string, string>> | undefined,
  names: ReadonlySet<string>,
): [Record<string, string>, Record<string, string>] {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [k, v] of Object.entries(attributes ?? {})) (names.has(k.toLowerCase()) ? secret : plain)[k] = v;
  return [plain, secret];
}
