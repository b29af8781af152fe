/** A customer of an account, as channels bring them. Identifiers are unique per account. */
export interface Customer {
  id: string;
  accountId: string;
  externalId?: string;
  /** As given; looked up case-insensitively. */
  email?: string;
  /** E.164 digits without "+". */
  phone?: string;
  name?: string;
  /** Schema attributes, e.g. TCKN. */
  schema: Record<string, string>;
  /** Free attributes (an SMS sharing's custom attributes). */
  attributes: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export type IdentifierKind = 'externalId' | 'email' | 'phone';

/** Resolution order: the strongest identifier first (the public Pisano behaviour). */
export const RESOLUTION_ORDER: readonly IdentifierKind[] = ['externalId', 'email', 'phone'];

/** Normalized identifiers: email lower-cased, phone as E.164 digits. */
export type Identifiers = Partial<Record<IdentifierKind, string>>;

export const lookupValue = (kind: IdentifierKind, value: string) => (kind === 'email' ? value.toLowerCase() : value);

export function identifierOf(customer: Customer, kind: IdentifierKind): string | undefined {
  const v = customer[kind];
  return v === undefined ? undefined : lookupValue(kind, v);
}

/** Schema and attributes are merged key by key into the stored maps. */
export type CustomerChanges = Pick<Customer, 'externalId' | 'email' | 'phone' | 'name' | 'schema' | 'attributes' | 'updatedAt'>;
