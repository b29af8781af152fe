import { describe, expect, it } from 'vitest';
import { resolveCustomer, type CustomerFacts } from '../src/domain/customer-resolution.js';
import { memoryDeps } from './fakes/memory-deps.js';

const facts = (ids: CustomerFacts['ids'], more: Partial<CustomerFacts> = {}): CustomerFacts => ({
  ids,
  schema: {},
  attributes: {},
  ...more,
});

describe('resolveCustomer', () => {
  it('creates a customer when no identifier matches, and finds it again by any of them', async () => {
    const d = memoryDeps();
    const first = await resolveCustomer(
      d,
      'acc',
      facts({ externalId: 'crm-1', email: 'Ada@Example.com', phone: '905321234567' }, { name: 'Ada' }),
    );
    expect(first.created).toBe(true);
    for (const ids of [{ externalId: 'crm-1' }, { email: 'ada@EXAMPLE.com' }, { phone: '905321234567' }]) {
      const again = await resolveCustomer(d, 'acc', facts(ids));
      expect(again).toMatchObject({ created: false, customer: { id: first.customer.id, name: 'Ada' } });
    }
    expect(d.customers.items).toHaveLength(1);
  });

  it('resolves external_id first, then e-mail, then phone', async () => {
    const d = memoryDeps();
    const byPhone = (await resolveCustomer(d, 'acc', facts({ phone: '905321234567' }))).customer;
    const byEmail = (await resolveCustomer(d, 'acc', facts({ email: 'b@x.io' }))).customer;
    const byExt = (await resolveCustomer(d, 'acc', facts({ externalId: 'e1' }))).customer;
    expect((await resolveCustomer(d, 'acc', facts({ externalId: 'e1', email: 'b@x.io', phone: '905321234567' }))).customer.id).toBe(
      byExt.id,
    );
    expect((await resolveCustomer(d, 'acc', facts({ email: 'b@x.io', phone: '905321234567' }))).customer.id).toBe(byEmail.id);
    expect((await resolveCustomer(d, 'acc', facts({ phone: '905321234567' }))).customer.id).toBe(byPhone.id);
    expect(d.customers.items).toHaveLength(3);
  });

  it('updates the match with what the channel brought, merging schema and attributes', async () => {
    const d = memoryDeps();
    const { customer } = await resolveCustomer(
      d,
      'acc',
      facts({ externalId: 'e1' }, { name: 'Old', schema: { TCKN: '1' }, attributes: { city: 'Izmir' } }),
    );
    const { customer: updated } = await resolveCustomer(
      d,
      'acc',
      facts(
        { externalId: 'e1', email: 'new@x.io', phone: '905321234567' },
        { name: 'New', schema: { segment: 'gold' }, attributes: { plan: 'pro' } },
      ),
    );
    expect(updated).toMatchObject({ id: customer.id, name: 'New', email: 'new@x.io', phone: '905321234567' });
    expect(updated.schema).toEqual({ TCKN: '1', segment: 'gold' });
    expect(updated.attributes).toEqual({ city: 'Izmir', plan: 'pro' });
  });

  it("never takes another customer's e-mail or phone", async () => {
    const d = memoryDeps();
    const a = (await resolveCustomer(d, 'acc', facts({ externalId: 'a', email: 'shared@x.io' }))).customer;
    const b = (await resolveCustomer(d, 'acc', facts({ externalId: 'b', email: 'shared@x.io', phone: '905321234567' }))).customer;
    expect(b.id).not.toBe(a.id);
    expect(b.email).toBeUndefined();
    expect(b.phone).toBe('905321234567');
    expect((await d.customers.findById('acc', a.id))?.email).toBe('shared@x.io');
  });

  it('treats two different external ids as two people even when the phone matches', async () => {
    const d = memoryDeps();
    const a = (await resolveCustomer(d, 'acc', facts({ externalId: 'a', phone: '905321234567' }))).customer;
    const b = await resolveCustomer(d, 'acc', facts({ externalId: 'b', phone: '905321234567' }));
    expect(b.created).toBe(true);
    expect(b.customer.id).not.toBe(a.id);
    expect(b.customer.phone).toBeUndefined();
  });

  it('gives a customer found by phone its first external_id, but never changes it afterwards', async () => {
    const d = memoryDeps();
    const c = (await resolveCustomer(d, 'acc', facts({ phone: '905321234567' }))).customer;
    expect((await resolveCustomer(d, 'acc', facts({ externalId: 'crm-9', phone: '905321234567' }))).customer).toMatchObject({
      id: c.id,
      externalId: 'crm-9',
    });
  });

  it('keeps accounts apart', async () => {
    const d = memoryDeps();
    const a = await resolveCustomer(d, 'acc-a', facts({ email: 'same@x.io' }));
    const b = await resolveCustomer(d, 'acc-b', facts({ email: 'same@x.io' }));
    expect(b.created).toBe(true);
    expect(b.customer.id).not.toBe(a.customer.id);
  });

  it('starts over when a concurrent resolution created the customer first', async () => {
    const d = memoryDeps();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => resolveCustomer(d, 'acc', facts({ email: 'race@x.io', phone: '905321234567' }))),
    );
    expect(new Set(results.map((r) => r.customer.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(d.customers.items).toHaveLength(1);
  });
});
