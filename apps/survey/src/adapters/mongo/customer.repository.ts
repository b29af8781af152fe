import { insertManyOnce, insertOnce, isDuplicateKeyError } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { Customer, CustomerChanges, IdentifierKind } from '../../domain/customer.js';
import type { CustomerRepository } from '../../domain/ports.js';

interface CustomerDoc {
  _id: string;
  account_id: string;
  external_id?: string;
  email?: string;
  email_lower?: string;
  phone?: string;
  name?: string;
  schema: Record<string, string>;
  attributes: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

const FIELD: Record<IdentifierKind, 'external_id' | 'email_lower' | 'phone'> = {
  externalId: 'external_id',
  email: 'email_lower',
  phone: 'phone',
};

const toCustomer = (d: CustomerDoc): Customer => ({
  id: d._id,
  accountId: d.account_id,
  ...(d.external_id !== undefined ? { externalId: d.external_id } : {}),
  ...(d.email !== undefined ? { email: d.email } : {}),
  ...(d.phone !== undefined ? { phone: d.phone } : {}),
  ...(d.name !== undefined ? { name: d.name } : {}),
  schema: d.schema ?? {},
  attributes: d.attributes ?? {},
  createdAt: d.created_at,
  updatedAt: d.updated_at,
});

const toDoc = (c: Customer): CustomerDoc => ({
  _id: c.id,
  account_id: c.accountId,
  ...(c.externalId !== undefined ? { external_id: c.externalId } : {}),
  ...(c.email !== undefined ? { email: c.email, email_lower: c.email.toLowerCase() } : {}),
  ...(c.phone !== undefined ? { phone: c.phone } : {}),
  ...(c.name !== undefined ? { name: c.name } : {}),
  schema: c.schema,
  attributes: c.attributes,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/** Dotted paths merge a map key by key instead of replacing it (keys are checked in domain/). */
const merged = (field: string, values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [`${field}.${k}`, v]));

export class MongoCustomerRepository implements CustomerRepository {
  private readonly customers: Collection<CustomerDoc>;

  constructor(db: Db) {
    this.customers = db.collection<CustomerDoc>('customers');
  }

  async findBy(accountId: string, kind: IdentifierKind, value: string): Promise<Customer | null> {
    // Exactly the fields of the identifier's index (indexes.ts).
    const doc = await this.customers.findOne({ account_id: accountId, [FIELD[kind]]: value });
    return doc ? toCustomer(doc) : null;
  }

  async findById(accountId: string, id: string): Promise<Customer | null> {
    const doc = await this.customers.findOne({ _id: id, account_id: accountId });
    return doc ? toCustomer(doc) : null;
  }

  async findByIds(accountId: string, ids: string[]): Promise<Customer[]> {
    // `_id` first: a lookup per id on the primary index (indexes.ts), the account checked on each document.
    const docs = await this.customers.find({ _id: { $in: ids }, account_id: accountId }).toArray();
    return docs.map(toCustomer);
  }

  async insert(c: Customer): Promise<'created' | 'duplicate'> {
    return (await insertOnce(this.customers, toDoc(c))) ? 'created' : 'duplicate';
  }

  async insertMany(customers: Customer[]): Promise<Array<'created' | 'duplicate'>> {
    // Unordered: a customer refused by a unique index does not stop the ones after it.
    const inserted = await insertManyOnce(this.customers, customers.map(toDoc));
    return inserted.map((ok) => (ok ? 'created' : 'duplicate'));
  }

  async update(accountId: string, id: string, ch: CustomerChanges): Promise<Customer | 'duplicate' | null> {
    const set: Record<string, unknown> = {
      ...(ch.externalId !== undefined ? { external_id: ch.externalId } : {}),
      ...(ch.email !== undefined ? { email: ch.email, email_lower: ch.email.toLowerCase() } : {}),
      ...(ch.phone !== undefined ? { phone: ch.phone } : {}),
      ...(ch.name !== undefined ? { name: ch.name } : {}),
      ...merged('schema', ch.schema),
      ...merged('attributes', ch.attributes),
      updated_at: ch.updatedAt,
    };
    try {
      const doc = await this.customers.findOneAndUpdate({ _id: id, account_id: accountId }, { $set: set }, { returnDocument: 'after' });
      return doc ? toCustomer(doc) : null;
    } catch (err) {
      if (isDuplicateKeyError(err)) return 'duplicate';
      throw err;
    }
  }
}
