import { errors } from '@feedback/kit-core';
import type { Filter } from 'mongodb';

interface Keyed {
  _id: string;
  created_at: Date;
}

/** Opaque cursor of a newest-first page: the last item's (created_at, _id). */
export const cursorOf = (doc: Keyed) => Buffer.from(`${doc.created_at.getTime()}:${doc._id}`).toString('base64url');

/** The filter of the items after the cursor; a 400 naming page_token for a cursor this code did not make. */
export function afterCursor<T extends Keyed>(cursor: string): Filter<T> {
  if (!cursor) return {};
  const [ms, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  const at = Number(ms);
  const id = rest.join(':');
  if (!Number.isSafeInteger(at) || !id) throw errors.invalid({ page_token: 'is not a page token this API gave' });
  const t = new Date(at);
  return { $or: [{ created_at: { $lt: t } }, { created_at: t, _id: { $lt: id } }] } as Filter<T>;
}
