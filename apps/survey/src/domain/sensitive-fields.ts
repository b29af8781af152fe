import { isPersonalDataHash } from '@feedback/kit-core';
import type { PersonalDataHasher } from './ports.js';

/*
 * Sensitive customer fields (the TCKN, and whatever the deployment adds) are only ever compared
 * for equality and never shown back, so a customer keeps only their keyed hash: a database dump
 * does not give the numbers back, not even by trying all 10^11 TCKNs (the key is not in it).
 */

// A plain boolean: kit-core's type guard would narrow a string that is not a hash to `never`.
const isHash = (v: string): boolean => isPersonalDataHash(v);

/** One purpose per field name whatever its case, so a schema's `TCKN` and an attribute's `tckn` hash alike. */
export const sensitivePurpose = (name: string) => `customer.${name.toLowerCase()}`;

/**
 * The map with each sensitive entry's value replaced by its keyed hash (of the trimmed value);
 * empty values and values that are hashes already stay as they are.
 */
export function hashSensitive(
  values: Record<string, string>,
  names: ReadonlySet<string>,
  hasher: Pick<PersonalDataHasher, 'hash'>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [
      k,
      names.has(k.toLowerCase()) && v.trim() && !isHash(v) ? hasher.hash(v.trim(), sensitivePurpose(k)) : v,
    ]),
  );
}

/**
 * Whether a stored sensitive field holds `given`: its hash under any configured key, or the clear
 * value itself on a document the start-up migration has not rewritten yet.
 */
export function sensitiveEquals(stored: string | undefined, given: string, name: string, hasher: PersonalDataHasher): boolean {
  if (stored === undefined) return false;
  if (!isHash(stored)) return stored.trim() === given;
  return hasher.hashes(given, sensitivePurpose(name)).includes(stored);
}
