const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BLOB_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Our ids are UUIDs: anything else cannot exist, and is not worth a database round trip. */
export const isId = (id: string) => UUID.test(id ?? '');
export const normalizeId = (id: string) => id.toLowerCase();
export const isBlobToken = (token: string) => BLOB_TOKEN.test(token ?? '');
