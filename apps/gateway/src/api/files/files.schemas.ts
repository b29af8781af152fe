import { Type, type TSchema } from '@fastify/type-provider-typebox';

const datetime = (description: string) => Type.String({ format: 'date-time', description, examples: ['2026-11-22T09:30:00.123+00:00'] });
const blobUrl = (description: string) =>
  Type.String({ description, examples: ['https://api.example.com/public/v2/storage/blobs/q8Zx…/customers.csv'] });

/** A directory (docs/decisions.md "File service"). */
const DirectorySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    object: Type.Literal('file_service::directory'),
    name: Type.String({ description: 'Unique within the account.' }),
    created_at: datetime('Creation time, ISO 8601 with UTC offset and milliseconds.'),
  },
  { $id: 'FileDirectory' },
);

/** A file entry (docs/decisions.md "File service"). */
const FileEntrySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    object: Type.Literal('file_service::file'),
    filename: Type.String(),
    url: blobUrl('Absolute URL of the bytes; needs no token (the blob token in it is unguessable).'),
    proxy_url: blobUrl('Same URL (the gateway is the proxy).'),
    directory: Type.String({ description: 'Directory name.' }),
    directory_id: Type.String({ format: 'uuid' }),
    user_id: Type.String({ description: 'Id of the API token that uploaded the file.' }),
    created_at: datetime('Upload time.'),
    expired_at: Type.Union([Type.String({ format: 'date-time', description: 'Expiry time.' }), Type.Null()], {
      description: 'null until the file has expired.',
      examples: ['2026-11-29T09:30:00.123+00:00'],
    }),
  },
  { $id: 'FileEntry' },
);

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });

/** The single-item envelope (docs/decisions.md "Envelopes"): `object` repeats the item's object, `url` is the endpoint path. */
const single = (item: string, object: string) =>
  Type.Object({ object: Type.Literal(object), url: Type.String({ description: 'Endpoint path.' }), data: ref(item) });

/** The collection envelope (docs/decisions.md "Envelopes"). */
const collection = (item: string) =>
  Type.Object({ object: Type.Literal('collection'), url: Type.String({ description: 'Endpoint path.' }), data: Type.Array(ref(item)) });

export const DirectoryEnvelope = single('FileDirectory', 'file_service::directory');
export const DirectoryCollection = collection('FileDirectory');
export const FileEnvelope = single('FileEntry', 'file_service::file');
export const FileCollection = collection('FileEntry');

export const DirectoryBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, description: 'Unique within the account.' }) },
  { additionalProperties: false, examples: [{ name: 'sms-recipients' }] },
);

const id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
export const AccountParams = Type.Object({ account_id: id("The caller's own account id.") });
export const DirectoryParams = Type.Object({ directory_id: id('Directory id.') });
export const FileParams = Type.Object({ directory_id: id('Directory id.'), file_entry_id: id('File entry id.') });
// filename: at most 200 characters (decoded), the router's limit; the file service keeps names within it.
export const BlobParams = Type.Object({
  blob_token: Type.String({ minLength: 1, maxLength: 100 }),
  filename: Type.String({ maxLength: 200 }),
});

export const fileSchemas: TSchema[] = [DirectorySchema, FileEntrySchema];
