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

/** What a bound workflow made of the file (docs/api.md "Workflows on files"). */
const ProcessingSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('pending'), Type.Literal('processed'), Type.Literal('failed')], {
      description: 'pending from the upload until the workflow reports; failed when the whole file was refused.',
    }),
    sharing_id: Type.Union([Type.String(), Type.Null()], { description: 'The SMS sharing the file made; null when none.' }),
    rows: Type.Integer({ minimum: 0, description: 'Data rows read (the header row excluded).' }),
    accepted: Type.Integer({ minimum: 0 }),
    rejected: Type.Integer({ minimum: 0 }),
    errors: Type.Array(
      Type.Object({
        row: Type.Integer({ minimum: 0, description: 'Line in the file; the header is line 1.' }),
        reason: Type.String({ description: 'Names the column or rule, never the cell.' }),
      }),
      { description: 'The first 100 refused rows.', maxItems: 100 },
    ),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the whole file was refused (failed); null otherwise.' }),
    processed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null while pending.' }),
  },
  {
    examples: [
      {
        status: 'processed',
        sharing_id: '0b6f5c1e-9a2d-4c1b-8f3e-6a7d2b9c1e40',
        rows: 3,
        accepted: 2,
        rejected: 1,
        errors: [{ row: 4, reason: 'not_a_number' }],
        reason: null,
        processed_at: '2026-11-22T09:30:02.456+00:00',
      },
    ],
  },
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
    processing: Type.Union([ProcessingSchema, Type.Null()], {
      description: 'For a file whose name a directory binding makes an SMS sharing from (a CSV workflow); null for any other file.',
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
