import { KANNEL_DELIVERY_RULE } from '../../../status/domain/delivery-report.js';
import type { OutgoingSms, ProviderResult, SmsProvider } from '../../ports.js';
import type { ReportRule } from '../../../shared/domain/sms-message.js';
import { dlrUrl } from './dlr-signature.js';
import type { HttpProviderConfig } from './http-provider.config.js';

export interface HttpProviderOptions {
  config: HttpProviderConfig;
  /** Where providers reach our delivery-report listener (dlr.server.ts); needed for {dlr_url}. */
  dlrBaseUrl?: string;
  dlrSecret?: string;
  /** Recorded on each message it sends (default "http"); an account's own provider is "account-http". */
  name?: string;
  /** It sends the Turkish single shift table (SMS_TURKISH_SHIFT_TABLE, an account's `turkish_shift_table`). */
  turkishShiftTable?: boolean;
}

type Values = Record<'to' | 'text' | 'message_id' | 'dlr_url' | 'sender', string>;

// Connection failures that prove the request never reached the provider: safe to retry.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Any HTTP SMS API, from configuration (http-provider.config.ts). */
export class HttpSmsProvider implements SmsProvider {
  readonly name: string;
  readonly deliveryRule: ReportRule;
  readonly turkishShiftTable: boolean;
  private readonly successBody?: RegExp;
  private readonly messageIdRe?: RegExp;
  private readonly placeholders: RegExp;

  constructor(private readonly opts: HttpProviderOptions) {
    const c = opts.config;
    this.name = opts.name ?? 'http';
    this.turkishShiftTable = opts.turkishShiftTable ?? false;
    // Without `dlr` settings reports read as Kannel's, as they always have.
    this.deliveryRule = {
      statusParam: c.dlr?.status_param ?? 'status',
      delivered: c.dlr?.delivered ?? KANNEL_DELIVERY_RULE.delivered,
      failed: c.dlr?.failed ?? KANNEL_DELIVERY_RULE.failed,
      ...(c.dlr?.error_param && { errorParam: c.dlr.error_param }),
      ...(c.dlr?.description_param && { descriptionParam: c.dlr.description_param }),
    };
    // {sender} only when there is one: without it, the text stays as written, as before it existed.
    this.placeholders = c.sender === undefined ? /\{(to|text|message_id|dlr_url)\}/g : /\{(to|text|message_id|dlr_url|sender)\}/g;
    if (c.success.body_regex) this.successBody = new RegExp(c.success.body_regex);
    if (c.message_id_regex) this.messageIdRe = new RegExp(c.message_id_regex);
  }

  async send(sms: OutgoingSms): Promise<ProviderResult> {
    const c = this.opts.config;
    const values: Values = {
      to: sms.to,
      text: sms.text,
      message_id: sms.messageId,
      dlr_url:
        this.opts.dlrBaseUrl && this.opts.dlrSecret
          ? dlrUrl(this.opts.dlrBaseUrl, this.opts.dlrSecret, sms.messageId, c.dlr?.url_query)
          : '',
      sender: c.sender ?? '',
    };
    const fill = (template: string, escape: (s: string) => string) =>
      template.replace(this.placeholders, (_, name: keyof Values) => escape(values[name]));
    const url = new URL(c.url);
    for (const [k, v] of Object.entries(c.query))
      url.searchParams.set(
        k,
        fill(v, (s) => s),
      );
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(c.headers)) headers[k] = fill(v, (s) => s);
    let body: string | undefined;
    if (c.body !== undefined && c.method !== 'GET') {
      body = fill(c.body, escaperFor(c.body_encoding));
      headers['content-type'] ??= c.content_type ?? contentTypeFor(c.body_encoding);
    }

    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method: c.method, headers, body, signal: AbortSignal.timeout(c.timeout_ms) });
      text = await res.text();
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code && NOT_SENT_CODES.has(code)) return { outcome: 'rejected', retriable: true, reason: `${code} ${url.host}` };
      // A timeout or a dropped connection after the request left: it may have been sent.
      return {
        outcome: 'unknown',
        reason: (err as Error).name === 'TimeoutError' ? `no answer within ${c.timeout_ms} ms` : (err as Error).message,
      };
    }

    const inRange = res.status >= c.success.status_min && res.status <= c.success.status_max;
    if (inRange && (!this.successBody || this.successBody.test(text))) {
      const id = this.messageIdRe?.exec(text)?.[1];
      return { outcome: 'accepted', providerMessageId: id };
    }
    const reason = `HTTP ${res.status}: ${text.slice(0, 200).trim()}`;
    return { outcome: 'rejected', retriable: !inRange && c.retry_statuses.includes(res.status), reason };
  }
}

function escaperFor(encoding: HttpProviderConfig['body_encoding']): (s: string) => string {
  if (encoding === 'json') return (s) => JSON.stringify(s).slice(1, -1); // inside the template's quotes
  if (encoding === 'form') return encodeURIComponent;
  return (s) => s;
}

function contentTypeFor(encoding: HttpProviderConfig['body_encoding']): string {
  return encoding === 'json' ? 'application/json' : encoding === 'form' ? 'application/x-www-form-urlencoded' : 'text/plain; charset=utf-8';
}
