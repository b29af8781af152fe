import { encodePageToken, type Page, type PageKey, type PageQuery } from '@feedback/kit-core';
import type { Collection, Document, Filter, Sort } from 'mongodb';

/** How a collection's documents are ordered newest first. */
export type KeysetOrder<T> =
  /**
   * By a date field, ties by `_id`: the index is (…equalities, date, _id). `ascending` reads oldest
   * first (a sweep's order). A page after a key narrows the filter's own range of the date (a
   * `created_after` bound holds on every page).
   */
  | { date: keyof T & string; ascending?: boolean }
  /**
   * By one unique string field that starts with the date and ends with the id (`sortKey(key)`),
   * ordered like (date, _id): the index is (…equalities, field -1). A page is one range of it,
   * and the filter may bound the same field (a date range).
   */
  | { date: keyof T & string; field: keyof T & string; sortKey: (key: PageKey) => string };

export interface KeysetPageOptions<T> {
  /** The list's equalities (and ranges of other fields), exactly the fields of one index. */
  filter: Filter<T>;
  order: KeysetOrder<T>;
  /**
   * Checked here for a filter the index cannot serve: the server scans the whole collection for
   * a query with one equality more than its index has, so such a field is read down the index.
   */
  accept?: (doc: T) => boolean;
}

/**
 * One page of a collection, newest first (or oldest, for a sweep), by keyset: stable while new
 * documents arrive, unlike skip/offset, and read from a compound index. A page after a (date, id)
 * key is read as two index ranges, not one `$or`, which the local server (SecantusDB) answers by
 * scanning the collection: the rest of the key's instant (a bulk write puts many documents on one
 * date), then everything older (newer). Reads `size + 1` to know whether a next page exists.
 */
export async function keysetPage<T extends { _id: string }>(docs: Collection<T>, q: PageQuery, o: KeysetPageOptions<T>): Promise<Page<T>> {
  const want = q.size + 1;
  const found =
    'field' in o.order ? await bySortKey(docs, q, want, o, o.order) : await byDateAndId(docs, q, want, o, o.order.date, o.order.ascending);
  const items = found.slice(0, q.size);
  const last = items.at(-1);
  const date = o.order.date;
  return {
    items,
    nextPageToken: found.length > q.size && last ? encodePageToken(q.list, { at: last[date] as Date, id: last._id }) : '',
  };
}

async function byDateAndId<T extends { _id: string }>(
  docs: Collection<T>,
  q: PageQuery,
  want: number,
  o: KeysetPageOptions<T>,
  date: string,
  ascending = false,
): Promise<T[]> {
  const sort: Sort = ascending ? { [date]: 1, _id: 1 } : { [date]: -1, _id: -1 };
  const past = ascending ? '$gt' : '$lt';
  if (!q.after) return read(docs, o.filter, sort, want, o.accept);
  const ties = { ...o.filter, [date]: q.after.at, _id: { [past]: q.after.id } } as Filter<T>;
  const found = await read(docs, ties, sort, want, o.accept);
  if (found.length >= want) return found;
  const own = (o.filter as Document)[date] as unknown;
  const range = own && typeof own === 'object' && !(own instanceof Date) ? own : {};
  const rest = { ...o.filter, [date]: { ...range, [past]: q.after.at } } as Filter<T>;
  return [...found, ...(await read(docs, rest, sort, want - found.length, o.accept))];
}

async function bySortKey<T extends { _id: string }>(
  docs: Collection<T>,
  q: PageQuery,
  want: number,
  o: KeysetPageOptions<T>,
  order: { field: string; sortKey: (key: PageKey) => string },
): Promise<T[]> {
  const filter = o.filter as Document;
  const bound = (filter[order.field] ?? {}) as { $lt?: string };
  const after = q.after ? order.sortKey(q.after) : undefined;
  // The token and the filter's own upper bound (a date range) both bound the page: the lower holds.
  const below = after !== undefined && (bound.$lt === undefined || after < bound.$lt) ? after : bound.$lt;
  const range = below === undefined ? filter[order.field] : { ...bound, $lt: below };
  const query = { ...filter, ...(range !== undefined ? { [order.field]: range } : {}) } as Filter<T>;
  return read(docs, query, { [order.field]: -1 }, want, o.accept);
}

async function read<T extends { _id: string }>(
  docs: Collection<T>,
  filter: Filter<T>,
  sort: Sort,
  n: number,
  accept: ((doc: T) => boolean) | undefined,
): Promise<T[]> {
  if (!accept) return (await docs.find(filter).sort(sort).limit(n).toArray()) as T[];
  const page: T[] = [];
  const cursor = docs
    .find(filter)
    .sort(sort)
    .batchSize(Math.min(n * 2, 1_000));
  try {
    for await (const doc of cursor) {
      if (accept(doc as T)) page.push(doc as T);
      if (page.length >= n) break;
    }
  } finally {
    await cursor.close();
  }
  return page;
}
