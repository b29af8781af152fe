/**
 * An account's own SMS provider: the generic HTTP provider's settings (the JSON of
 * SMS_HTTP_PROVIDER) plus the sender its messages carry. The domain reads only what masking
 * needs; adapters/http/account-provider.config.ts validates the rest.
 */
export interface AccountProviderSettings {
  url: string;
  sender: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: string;
  body_encoding: 'json' | 'form' | 'raw';
  readonly [field: string]: unknown;
}

export interface AccountProvider {
  accountId: string;
  settings: AccountProviderSettings;
  createdAt: Date;
  updatedAt: Date;
}

/** What stands for any literal text in a shown provider. */
const MASK = '****';

const PLACEHOLDER = /(\{(?:to|text|message_id|dlr_url|sender)\})/;

/**
 * The settings as they may be shown (GET, the answer to PUT): every literal value of the URL's
 * user, password, query and fragment, of `query`, `headers` and `body` is masked, since any of
 * them may be a credential and key names (`pwd`, `X-Auth`, `sifre`) cannot tell which. What
 * stays: the placeholders where they stand, every key and the JSON or form structure of the
 * body, the URL's scheme, host, port and path, the sender and every other setting (method,
 * encodings, timeouts, success and delivery-report rules). A provider is therefore never read
 * back whole: to change it, PUT it again.
 */
export function maskSettings<T extends AccountProviderSettings>(s: T): T {
  return {
    ...s,
    url: maskUrl(s.url),
    query: maskValues(s.query),
    headers: maskValues(s.headers),
    ...(s.body !== undefined && { body: maskBody(s.body, s.body_encoding) }),
  };
}

/** Each run of literal text becomes ****; the placeholders stay where they are. */
export function maskTemplate(value: string): string {
  return value
    .split(PLACEHOLDER)
    .map((part, i) => (i % 2 === 1 || part === '' ? part : MASK))
    .join('');
}

function maskValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, maskTemplate(v)]));
}

function maskUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return MASK;
  }
  const auth = url.username || url.password ? `${MASK}@` : '';
  const query = [...url.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=${MASK}`).join('&');
  return `${url.protocol}//${auth}${url.host}${url.pathname}${query ? `?${query}` : ''}${url.hash ? `#${MASK}` : ''}`;
}

function maskBody(body: string, encoding: AccountProviderSettings['body_encoding']): string {
  if (encoding === 'json') {
    try {
      return JSON.stringify(maskJson(JSON.parse(body)));
    } catch {
      // A template that is JSON only once filled in (a placeholder outside quotes): as raw text.
    }
  }
  if (encoding === 'form')
    return body
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        return eq < 0 ? maskTemplate(pair) : `${pair.slice(0, eq)}=${maskTemplate(pair.slice(eq + 1))}`;
      })
      .join('&');
  return maskTemplate(body);
}

function maskJson(v: unknown): unknown {
  if (typeof v === 'string') return maskTemplate(v);
  if (typeof v === 'number') return MASK;
  if (Array.isArray(v)) return v.map(maskJson);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskJson(x)]));
  return v;
}
