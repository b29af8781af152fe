import { errors } from '@feedback/kit-core';
import { z } from 'zod';
import type { ProviderSettingsFormat } from '../../ports.js';
import { httpProviderConfigSchema, regexIssues, senderSchema } from './http-provider.config.js';

/**
 * An account's own provider: SMS_HTTP_PROVIDER's JSON with a required sender, and whether the
 * provider sends the Turkish single shift table (gsm7-tr; the deployment's says so by
 * SMS_TURKISH_SHIFT_TABLE).
 */
export const accountProviderConfigSchema = httpProviderConfigSchema.extend({
  sender: senderSchema(),
  turkish_shift_table: z.boolean().default(false),
});

export type AccountProviderConfig = z.infer<typeof accountProviderConfigSchema>;

/** Far above any real provider's settings; keeps one account's document small. */
const MAX_JSON_LENGTH = 16 * 1024;

/** Without these the provider would not know whom to send what. */
const REQUIRED_PLACEHOLDERS = ['{to}', '{text}'] as const;

/**
 * Validates an account's provider as strictly as SMS_HTTP_PROVIDER is at start-up (the same
 * schema), and a little more, since an operator's typo here fails only at the next SMS: the URL
 * must be http(s), {to} and {text} must appear in the query, headers or body, and a body is not
 * allowed with GET (it would be dropped). Every problem is named by its path (`query.to`,
 * `dlr.delivered[0]`, `sender`); the message never repeats a value.
 */
export function parseAccountProviderConfig(json: string): AccountProviderConfig {
  if (json.length > MAX_JSON_LENGTH) throw errors.invalid({ sms_provider: `must be at most ${MAX_JSON_LENGTH} characters of JSON` });
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch {
    throw errors.invalid({ sms_provider: 'is not valid JSON' });
  }
  const r = accountProviderConfigSchema.safeParse(doc);
  if (!r.success) throw errors.invalid(Object.fromEntries(r.error.issues.flatMap(namedIssues)));

  const c = r.data;
  const fields: Record<string, string> = Object.fromEntries(regexIssues(c));
  if (!/^https?:$/.test(new URL(c.url).protocol)) fields.url = 'must be an http or https URL';
  if (c.body !== undefined && c.method === 'GET') fields.body = 'is not sent with method GET';
  const templates = [...Object.values(c.query), ...Object.values(c.headers), c.method === 'GET' ? '' : (c.body ?? '')];
  for (const p of REQUIRED_PLACEHOLDERS) if (!templates.some((t) => t.includes(p))) fields[p] = 'must appear in query, headers or body';
  if (Object.keys(fields).length > 0) throw errors.invalid(fields);
  return c;
}

export const accountProviderFormat: ProviderSettingsFormat = { parse: parseAccountProviderConfig };

function namedIssues(i: z.core.$ZodIssue): [string, string][] {
  const at = pathOf(i.path);
  if (i.code === 'unrecognized_keys') return i.keys.map((k) => [at ? `${at}.${k}` : k, 'is not allowed']);
  return [[at || 'sms_provider', i.message]];
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p, k) => (typeof p === 'number' ? `[${p}]` : `${k === 0 ? '' : '.'}${String(p)}`)).join('');
}
