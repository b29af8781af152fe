import { Type } from '@fastify/type-provider-typebox';
import { AccountParams, Id } from '../../http/common.schemas.js';
import { CampaignParams } from './sms.schemas.js';

const at = Type.String({ format: 'date-time', examples: ['2026-11-22T09:30:00.123+00:00'] });

// The messaging service's rule, stated here so that a client (and a schema-driven fuzzer) knows it: no
// path separator or control character (Unicode Cc), not "." or ".." (spaces around it are trimmed there).
const FileName = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^(?![ \\t])(?!.*[ \\t]$)(?!\\.{1,2}$)[^/\\\\\\u0000-\\u001f\\u007f-\\u009f]+$',
  description:
    'The file name whose uploads into the directory make a sharing; default customers.csv. No path separator or control character, no leading or trailing space, not "." or "..".',
});

export const BindingParams = Type.Object({ ...AccountParams.properties, ...CampaignParams.properties });
export const UnbindParams = Type.Object({ ...BindingParams.properties, directory_id: Id('The bound directory.') });
export const UnbindQuery = Type.Object({ file_name: Type.Optional(FileName) });

export const BindBody = Type.Object(
  {
    directory_id: Id("A directory of the account's file service (404 naming directory_id otherwise)."),
    file_name: Type.Optional(FileName),
  },
  { additionalProperties: false, examples: [{ directory_id: '3f0e8d9a-1b2c-4d5e-8f70-9a1b2c3d4e5f', file_name: 'customers.csv' }] },
);

export const DirectoryBindingSchema = Type.Object(
  {
    campaign_id: Type.String({ format: 'uuid' }),
    directory_id: Type.String(),
    file_name: Type.String(),
    created_at: at,
    updated_at: at,
  },
  { $id: 'SmsDirectoryBinding' },
);
