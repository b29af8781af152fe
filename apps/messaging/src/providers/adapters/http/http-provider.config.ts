import { z } from 'zod';

/**
 * A sender as SMS networks take it: alphanumeric, at most 11 characters (GSM's limit for a text
 * originator), or a number of at most 15 digits. Operators reject other senders, often only later.
 */
export function senderSchema() {
  return z
    .string()
    .refine(
      (s) => /^[A-Za-z0-9._&-](?:[A-Za-z0-9 ._&-]{0,9}[A-Za-z0-9._&-])?$/.test(s) || /^\+?[0-9]{1,15}$/.test(s),
      'must be 1-11 letters, digits, inner spaces or . - _ &, or a number of at most 15 digits',
    );
}

/**
 * The generic HTTP provider, configured as JSON (env SMS_HTTP_PROVIDER): where and how to send,
 * with the placeholders {to} {text} {message_id} {dlr_url} (and {sender} when `sender` is set)
 * in the query values, header values and body; what counts as accepted; how delivery reports
 * read. Kannel's sendsms, for example:
 *   {"url": "http://127.0.0.1:13013/cgi-bin/sendsms", "method": "GET",
 *    "query": {"username": "u", "password": "p", "from": "FEEDBACK", "to": "{to}", "text": "{text}",
 *              "charset": "UTF-8", "coding": "2", "dlr-mask": "3", "dlr-url": "{dlr_url}"},
 *    "success": {"body_regex": "^(0|3): "},
 *    "dlr": {"url_query": "status=%d&answer=%A", "status_param": "status", "delivered": ["1"], "failed": ["2", "16"],
 *            "error_param": "answer"}}
 */
export const httpProviderConfigSchema = z.strictObject({
  url: z.url(),
  method: z.enum(['GET', 'POST', 'PUT']).default('POST'),
  headers: z.record(z.string(), z.string()).default({}),
  query: z.record(z.string(), z.string()).default({}),
  /** The {sender} placeholder's value; an account's own provider must have one (account-provider.config.ts). */
  sender: senderSchema().optional(),
  /** A template; placeholder values are escaped as `body_encoding` says. */
  body: z.string().optional(),
  body_encoding: z.enum(['json', 'form', 'raw']).default('json'),
  content_type: z.string().optional(),
  timeout_ms: z.number().int().min(100).max(120_000).default(10_000),
  success: z
    .strictObject({
      status_min: z.number().int().min(100).max(599).default(200),
      status_max: z.number().int().min(100).max(599).default(299),
      body_regex: z.string().optional(),
    })
    .default({ status_min: 200, status_max: 299 }),
  /** Capture group 1 of this regex over the response body is the provider's message id. */
  message_id_regex: z.string().optional(),
  /** Statuses that mean "not taken, try later"; other non-success statuses fail for good. */
  retry_statuses: z.array(z.number().int()).default([408, 425, 429, 500, 502, 503, 504]),
  dlr: z
    .strictObject({
      /** Appended to our callback URL's query, e.g. Kannel's "status=%d" substitution. */
      url_query: z.string().default(''),
      /** Where the report's status code is: a query or form/JSON body field. */
      status_param: z.string().default('status'),
      delivered: z.array(z.string()).default(['1']),
      failed: z.array(z.string()).default(['2', '16']),
      /**
       * Where a failing report's error code is (kept on the message as `error.code`). A value that
       * is an SMPP receipt text, as Kannel's "%A" (`… stat:UNDELIV err:001 …`), gives its err: as
       * the code and its stat: as the description; its `text:` (the start of the SMS) is never kept.
       */
      error_param: z.string().min(1).optional(),
      /** Where a failing report's description of the error is (`error.description`). */
      description_param: z.string().min(1).optional(),
    })
    .optional(),
});

export type HttpProviderConfig = z.infer<typeof httpProviderConfigSchema>;

export function parseHttpProviderConfig(json: string, variable = 'SMS_HTTP_PROVIDER'): HttpProviderConfig {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw new Error(`${variable} is not valid JSON: ${(err as Error).message}`);
  }
  const r = httpProviderConfigSchema.safeParse(doc);
  if (!r.success)
    throw new Error(`${variable} is invalid:\n${r.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}`);
  const bad = regexIssues(r.data);
  if (bad.length > 0) throw new Error(`${variable} is invalid:\n${bad.map(([field, why]) => `  ${field}: ${why}`).join('\n')}`);
  return r.data;
}

/** The regexes the schema cannot check: each one that does not compile, with the reason. */
export function regexIssues(c: HttpProviderConfig): [field: string, why: string][] {
  const issues: [string, string][] = [];
  for (const [field, re] of [
    ['success.body_regex', c.success.body_regex],
    ['message_id_regex', c.message_id_regex],
  ] as const) {
    if (re === undefined) continue;
    try {
      new RegExp(re);
    } catch (err) {
      issues.push([field, (err as Error).message]);
    }
  }
  return issues;
}

/** The same rule as JSON Schema (draft-07), for the Helm chart's values.schema.json (infra/chart-schema.ts). */
export const httpProviderJsonSchema = () => z.toJSONSchema(httpProviderConfigSchema, { io: 'input', target: 'draft-7' });
