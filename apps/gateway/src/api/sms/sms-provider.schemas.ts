import { Type, type TSchema } from '@fastify/type-provider-typebox';

const PLACEHOLDERS = '{to}, {text}, {sender}, {message_id}, {dlr_url}';

const StringMap = (description: string, example: Record<string, string>) =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 4000 },
    maxProperties: 50,
    description,
    examples: [example],
  });

const Enum = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

/**
 * The shape of an account's SMS provider: the messaging service's SMS_HTTP_PROVIDER JSON
 * (apps/messaging/src/providers/adapters/http/http-provider.config.ts) plus `sender`. The service checks
 * the rest (regexes compile, http(s) only, {to} and {text} used) and names the field.
 */
function providerFields(o: { response: boolean }) {
  const opt = <T extends TSchema>(s: T) => Type.Optional(s);
  // An answer always has the defaults filled in; a request may leave them out.
  const maybe = <T extends TSchema>(s: T) => (o.response ? s : opt(s));
  return {
    url: Type.String({
      format: 'uri',
      maxLength: 2000,
      description: o.response
        ? 'Scheme, host, port and path as set; user, password, query values and fragment masked.'
        : "The provider's HTTP(S) endpoint. Put credentials in query, headers or body: the path is shown by GET.",
    }),
    sender: Type.String({
      minLength: 1,
      maxLength: 16,
      pattern: '^([A-Za-z0-9._&-]([A-Za-z0-9 ._&-]{0,9}[A-Za-z0-9._&-])?|\\+?[0-9]{1,15})$',
      description:
        "The sender name or number of the account's SMS, the value of {sender}: 1-11 letters, digits, inner spaces or . - _ &, or a number of at most 15 digits.",
    }),
    method: maybe(Enum(['GET', 'POST', 'PUT'] as const, 'Default POST.')),
    headers: maybe(StringMap(`Header values; templates with ${PLACEHOLDERS}.`, { authorization: 'Bearer <API key>' })),
    query: maybe(
      StringMap(`Query parameters; templates with ${PLACEHOLDERS}.`, {
        username: 'acme',
        password: '<password>',
        from: '{sender}',
        to: '{to}',
        text: '{text}',
      }),
    ),
    body: opt(
      Type.String({
        maxLength: 8000,
        description: `A template with ${PLACEHOLDERS}; values are escaped as body_encoding says. Not with GET.`,
      }),
    ),
    body_encoding: maybe(Enum(['json', 'form', 'raw'] as const, 'How placeholder values are escaped in body; default json.')),
    content_type: opt(Type.String({ maxLength: 200, description: 'Default from body_encoding.' })),
    timeout_ms: maybe(
      Type.Integer({ minimum: 100, maximum: 120000, description: 'Default 10000; no answer in time: status unknown, never re-sent.' }),
    ),
    success: maybe(
      Type.Object(
        {
          status_min: maybe(Type.Integer({ minimum: 100, maximum: 599 })),
          status_max: maybe(Type.Integer({ minimum: 100, maximum: 599 })),
          body_regex: opt(Type.String({ maxLength: 500, description: 'The answer must also match it.' })),
        },
        { additionalProperties: false, description: 'What counts as accepted; default any 2xx.' },
      ),
    ),
    message_id_regex: opt(Type.String({ maxLength: 500, description: "Capture group 1 over the answer is the provider's message id." })),
    retry_statuses: maybe(
      Type.Array(Type.Integer(), {
        maxItems: 50,
        description: 'Statuses meaning "not taken, try later" (default 408, 425, 429, 500, 502, 503, 504); others fail for good.',
      }),
    ),
    turkish_shift_table: maybe(
      Type.Boolean({
        description:
          'The provider sends the Turkish single shift table: a text with ğ ı ş İ Ğ Ş ç is billed as gsm7-tr (155 characters a segment) instead of ucs2 (70). Default false.',
      }),
    ),
    dlr: opt(
      Type.Object(
        {
          url_query: opt(Type.String({ maxLength: 500, description: "Added to {dlr_url}'s query, e.g. Kannel's status=%d." })),
          status_param: opt(Type.String({ maxLength: 100, description: "The report's field with the status code; default status." })),
          delivered: opt(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 50, description: 'Default ["1"].' })),
          failed: opt(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 50, description: 'Default ["2", "16"].' })),
          error_param: opt(
            Type.String({
              minLength: 1,
              maxLength: 100,
              description:
                "A failing report's field with the provider's error code (the message's error.code); an SMPP receipt text there, as Kannel's %A, gives its err: as the code and its stat: as the description.",
            }),
          ),
          description_param: opt(
            Type.String({
              minLength: 1,
              maxLength: 100,
              description: "A failing report's field with the error's description (error.description).",
            }),
          ),
        },
        {
          additionalProperties: false,
          description: 'How delivery reports read (the report is read by the rule of the provider that sent the message).',
        },
      ),
    ),
  };
}

const EXAMPLE = {
  url: 'https://sms.example.com/api/send',
  method: 'POST',
  sender: 'ACME',
  headers: { authorization: 'Bearer <API key>' },
  body: '{"from": "{sender}", "to": "{to}", "text": "{text}", "callback": "{dlr_url}"}',
  dlr: { status_param: 'status', delivered: ['DELIVERED'], failed: ['FAILED', 'REJECTED'] },
};

export const SmsProviderBody = Type.Object(providerFields({ response: false }), {
  additionalProperties: false,
  description: `The messaging service's SMS_HTTP_PROVIDER JSON plus sender; the placeholders ${PLACEHOLDERS} are filled per message.`,
  examples: [EXAMPLE],
});

export const SmsProviderSchema = Type.Object(
  {
    ...providerFields({ response: true }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'SmsProvider',
    additionalProperties: false,
    description:
      "An account's own SMS provider as stored (defaults filled in), masked: every literal text of the URL's user, password, query and fragment, of query, headers and body reads ****; the placeholders, keys, the body's JSON or form structure and the other settings stay.",
  },
);
