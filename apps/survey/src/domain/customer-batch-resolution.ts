import { lookupValue, RESOLUTION_ORDER, type Customer } from './customer.js';
import { newCustomer, resolveCustomer, type CustomerFacts } from './customer-resolution.js';
import type { SurveyDeps } from './ports.js';
import { settle, type Settled } from './settled.js';

type Deps = Pick<SurveyDeps, 'customers' | 'newId' | 'clock'>;
type Resolution = { customer: Customer; created: boolean };

/** Items of the batch sharing an identifier, connected (a with b by phone, b with c by e-mail), in batch order. */
function groupsSharingIdentifiers(batch: CustomerFacts[]): number[][] {
  const parent = batch.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const firstWith = new Map<string, number>();
  batch.forEach((facts, i) => {
    for (const kind of RESOLUTION_ORDER) {
      if (!facts.ids[kind]) continue;
      const key = `${kind}\0${lookupValue(kind, facts.ids[kind])}`;
      const other = firstWith.get(key);
      if (other === undefined) {
        firstWith.set(key, i);
        continue;
      }
      const [a, b] = [root(i), root(other)];
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  });
  const groups = new Map<number, number[]>();
  batch.forEach((_, i) => {
    const group = groups.get(root(i));
    if (group) group.push(i);
    else groups.set(root(i), [i]);
  });
  return [...groups.values()];
}

/**
 * resolveCustomer for each item of a batch, with the same answers, in one round trip for the
 * common case (new people). An item whose identifiers no other item carries is inserted as
 * resolveCustomer would create it, all such items in one insertMany: the unique indexes take
 * exactly the ones nobody holds an identifier of, which is when resolveCustomer creates. The
 * others (a refused insert: an existing customer, or a concurrent writer's) and the items
 * sharing an identifier go through resolveCustomer itself, one after the other within a group
 * of items sharing identifiers, as separate calls in batch order would.
 *
 * No lookup comes first: SecantusDB does not serve `$in` from the partial identifier indexes
 * (seconds at 200,000 customers, where equality is a point lookup; indexes.ts), and the insert
 * answers the same question for new people in the same round trip.
 */
export async function resolveCustomers(deps: Deps, accountId: string, batch: CustomerFacts[]): Promise<Array<Settled<Resolution>>> {
  const results: Array<Settled<Resolution>> = new Array(batch.length);
  const alone = async (i: number) => void (results[i] = await settle(() => resolveCustomer(deps, accountId, batch[i]!)));
  const groups = groupsSharingIdentifiers(batch);
  const single = groups.filter((g) => g.length === 1).map((g) => g[0]!);
  const shared = groups.filter((g) => g.length > 1);

  const insertSingle = async () => {
    if (single.length === 0) return;
    const now = deps.clock.now();
    const customers = single.map((i) => newCustomer(deps, accountId, batch[i]!, now));
    const answers = await deps.customers.insertMany(customers);
    await Promise.all(
      single.map((i, k) => (answers[k] === 'created' ? void (results[i] = { customer: customers[k]!, created: true }) : alone(i))),
    );
  };
  await Promise.all([
    insertSingle(),
    ...shared.map(async (group) => {
      for (const i of group) await alone(i);
    }),
  ]);
  return results;
}
