import type { Collection, Filter } from 'mongodb';

/** A document listed newest first: its date and its string id are the page's keys. */
type Dated = { _id: string; created_at: Date };

/**
 * One page of `filter`'s documents, newest first, by keyset (created_at, _id): stable while new
 * documents arrive, unlike skip/offset. A page after a cursor is read as two index ranges, not one
 * $or (which the local server answers by scanning the collection): the rest of the cursor's
 * millisecond (a bulk write puts many documents on one date), then everything older.
 */
export async function newestFirstPage<T extends Dated>(
  docs: Collection<T>,
  filter: Filter<T>,
  q: { limit: number; cursor?: string },
): Promise<{ items: T[]; nextCursor: string | null }> {
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const want = q.limit + 1;
  const page = async (f: Filter<T>, n: number) => (await docs.find(f).sort({ created_at: -1, _id: -1 }).limit(n).toArray()) as T[];
  let found: T[];
  if (!after) found = await page(filter, want);
  else {
    const ties = await page({ ...filter, created_at: after.at, _id: { $lt: after.id } } as Filter<T>, want);
    found =
      ties.length < want ? [...ties, ...(await page({ ...filter, created_at: { $lt: after.at } } as Filter<T>, want - ties.length))] : ties;
  }
  const items = found.slice(0, q.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: found.length > q.limit && last ? encodeCursor(last.created_at, last._id) : null };
}

function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.getTime(), id])).toString('base64url');
}

/** A cursor that does not decode reads as none: the first page. */
function decodeCursor(cursor: string): { at: Date; id: string } | null {
  try {
    const [ms, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    return typeof ms === 'number' && typeof id === 'string' ? { at: new Date(ms), id } : null;
  } catch {
    return null;
  }
}
