/** A small client of the admin API (docs/api.md "Admin API"). Errors carry the API's error body. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** What was asked, e.g. "POST /admin/v1/accounts", so the error can say what failed. */
    readonly request = '',
    readonly statusText = '',
  ) {
    super(`admin API answered ${status}: ${JSON.stringify(body)}`);
  }
}

/** The API could not be reached at all (no HTTP answer): the reason is the socket's, e.g. "connection refused". */
export class ApiUnreachableError extends Error {
  constructor(
    readonly baseUrl: string,
    readonly reason: string,
  ) {
    super(`cannot reach the API at ${baseUrl} (${reason})`);
  }
}

// undici's fetch fails with "fetch failed" and hides the socket's error code in `cause`.
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_SOCKET: 'connection closed',
  ERR_INVALID_URL: 'invalid URL',
};

export function unreachableReason(err: unknown): string {
  let e: unknown = err;
  let message = err instanceof Error ? err.message : String(err);
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return REASONS[code] ?? code;
    message = e.message;
    e = e.cause;
  }
  // No socket code: the innermost message ("bad port") says more than undici's "fetch failed".
  return message;
}

/** fetch, with a failure to connect turned into ApiUnreachableError and a non-2xx answer into AdminApiError. */
export async function requestJson<T>(doFetch: typeof fetch, baseUrl: string, path: string, init: RequestInit): Promise<T> {
  const url = `${baseUrl.replace(/\/$/, '')}${path}`;
  let res: Response;
  try {
    res = await doFetch(url, init);
  } catch (err) {
    throw new ApiUnreachableError(baseUrl, unreachableReason(err));
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not ours (a proxy's HTML page, say): keep the text so the error can show it.
    parsed = text;
  }
  if (!res.ok) throw new AdminApiError(res.status, parsed, `${init.method ?? 'GET'} ${path.split('?')[0]}`, res.statusText);
  return parsed as T;
}

export interface Channel {
  id: string;
  name: string;
  node_id: string;
  flow_id: string;
  link_ttl_days: number;
  created_at: string;
}

export interface SmsCampaign {
  id: string;
  name: string;
  node_id: string;
  flow_id: string;
  message_template: string;
  created_at: string;
  send_window: { start: string; end: string; time_zone: string; days: string[] } | null;
  reminders: { after: string; message_template: string | null }[];
  transliterate: boolean;
  warnings?: string[];
}

export interface DirectoryBinding {
  campaign_id: string;
  directory_id: string;
  file_name: string;
  created_at: string;
  updated_at: string;
}

export interface Domain {
  domain: string;
  default: boolean;
  created_at: string;
}

/** A console user or operator; `invite_url` only in a create's answer. */
export interface ConsoleUser {
  id: string;
  email: string;
  name: string;
  role: string;
  created_at: string;
  invite_url?: string | null;
}

/** A page of a list route: `next_page_token` is passed back as `page_token`. */
export interface Page<T = Record<string, unknown>> {
  data: T[];
  next_page_token: string | null;
}

export interface AdminClientOptions {
  baseUrl: string;
  adminToken: string;
  fetch?: typeof fetch;
}

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The deployment's SMS limits, or one account's. */
const smsLimitsPath = (accountId?: string) =>
  accountId === undefined ? '/sms_limits' : `/accounts/${encodeURIComponent(accountId)}/sms_limits`;

export function adminClient(opts: AdminClientOptions) {
  const doFetch = opts.fetch ?? fetch;
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    requestJson<T>(doFetch, opts.baseUrl, `/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${opts.adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const enc = encodeURIComponent;
  return {
    createAccount: (name: string) => call<{ id: string; name: string; created_at: string }>('POST', '/accounts', { name }),
    createToken: (accountId: string, kind: 'api' | 'integration', name: string) =>
      call<{ id: string; kind: string; name: string; token: string; created_at: string }>('POST', `/accounts/${enc(accountId)}/tokens`, {
        kind,
        name,
      }),
    listTokens: (accountId: string) => call<{ data: unknown[] }>('GET', `/accounts/${enc(accountId)}/tokens`),
    revokeToken: (accountId: string, tokenId: string) => call<null>('DELETE', `/accounts/${enc(accountId)}/tokens/${enc(tokenId)}`),
    createNode: (accountId: string, name: string) =>
      call<{ id: string; name: string; created_at: string }>('POST', `/accounts/${enc(accountId)}/nodes`, { name }),
    createFlow: (accountId: string, flow: unknown) =>
      call<{ id: string; name: string; questions: unknown[] }>('POST', `/accounts/${enc(accountId)}/flows`, flow),
    createChannel: (accountId: string, channel: { name: string; node_id: string; flow_id: string; link_ttl_days?: number }) =>
      call<Channel>('POST', `/accounts/${enc(accountId)}/channels`, channel),
    listChannels: (accountId: string) => call<{ data: Channel[] }>('GET', `/accounts/${enc(accountId)}/channels`),
    createCampaign: (
      accountId: string,
      campaign: { name: string; node_id: string; flow_id: string; message_template: string; link_ttl_days?: number },
    ) => call<SmsCampaign>('POST', `/accounts/${enc(accountId)}/sms_campaigns`, campaign),
    listCampaigns: (accountId: string, q: { page_size?: string; page_token?: string } = {}) =>
      call<{ data: SmsCampaign[]; next_page_token: string | null }>('GET', `/accounts/${enc(accountId)}/sms_campaigns${query(q)}`),
    listSharings: (
      accountId: string,
      q: {
        campaign_id?: string;
        status?: string;
        created_after?: string;
        created_before?: string;
        page_size?: string;
        page_token?: string;
      },
    ) => call<Page>('GET', `/accounts/${enc(accountId)}/sms_sharings${query(q)}`),
    campaignReport: (accountId: string, campaignId: string, q: { from?: string; to?: string; interval?: string; time_zone?: string }) =>
      call<Record<string, unknown>>('GET', `/accounts/${enc(accountId)}/sms_campaigns/${enc(campaignId)}/report${query(q)}`),
    /** Changes a campaign's send window, reminders or transliteration: only the fields given. */
    updateCampaign: (accountId: string, campaignId: string, rules: Record<string, unknown>) =>
      call<SmsCampaign>('PATCH', `/accounts/${enc(accountId)}/sms_campaigns/${enc(campaignId)}`, rules),
    bindDirectory: (accountId: string, campaignId: string, binding: { directory_id: string; file_name?: string }) =>
      call<DirectoryBinding>('POST', `/accounts/${enc(accountId)}/sms_campaigns/${enc(campaignId)}/directories`, binding),
    listBindings: (accountId: string, campaignId: string) =>
      call<{ data: DirectoryBinding[] }>('GET', `/accounts/${enc(accountId)}/sms_campaigns/${enc(campaignId)}/directories`),
    unbindDirectory: (accountId: string, campaignId: string, directoryId: string, fileName?: string) =>
      call<null>(
        'DELETE',
        `/accounts/${enc(accountId)}/sms_campaigns/${enc(campaignId)}/directories/${enc(directoryId)}${query({ file_name: fileName })}`,
      ),
    putSmsProvider: (accountId: string, provider: Record<string, unknown>) =>
      call<Record<string, unknown>>('PUT', `/accounts/${enc(accountId)}/sms_provider`, provider),
    getSmsProvider: (accountId: string) => call<Record<string, unknown>>('GET', `/accounts/${enc(accountId)}/sms_provider`),
    deleteSmsProvider: (accountId: string) => call<null>('DELETE', `/accounts/${enc(accountId)}/sms_provider`),
    /** The deployment's SMS limits without an account, one account's (with each tier's usage) with it. */
    getSmsLimits: (accountId?: string) => call<Record<string, unknown>>('GET', smsLimitsPath(accountId)),
    putSmsLimits: (accountId: string | undefined, body: Record<string, unknown>) =>
      call<Record<string, unknown>>('PUT', smsLimitsPath(accountId), body),
    deleteSmsLimits: (accountId?: string) => call<Record<string, unknown>>('DELETE', smsLimitsPath(accountId)),
    getRetention: (accountId: string) => call<Record<string, unknown>>('GET', `/accounts/${enc(accountId)}/retention`),
    putRetention: (accountId: string, body: Record<string, number | string>) =>
      call<Record<string, unknown>>('PUT', `/accounts/${enc(accountId)}/retention`, body),
    requestErasure: (accountId: string, body: Record<string, string>) =>
      call<Record<string, unknown>>('POST', `/accounts/${enc(accountId)}/data_erasures`, body),
    getErasure: (accountId: string, id: string) =>
      call<Record<string, unknown>>('GET', `/accounts/${enc(accountId)}/data_erasures/${enc(id)}`),
    addDomain: (accountId: string, domain: string) => call<Domain>('POST', `/accounts/${enc(accountId)}/domains`, { domain }),
    listDomains: (accountId: string) => call<{ data: Domain[] }>('GET', `/accounts/${enc(accountId)}/domains`),
    removeDomain: (accountId: string, domain: string) => call<null>('DELETE', `/accounts/${enc(accountId)}/domains/${enc(domain)}`),
    listSmsMessages: (accountId: string, q: { phone?: string; page_size?: string; page_token?: string }) =>
      call<Page>('GET', `/accounts/${enc(accountId)}/sms_messages${query(q)}`),
    listResponses: (accountId: string, q: ResponseFilters & { flow_id?: string; page_size?: string; page_token?: string }) =>
      call<Page>('GET', `/accounts/${enc(accountId)}/responses${query(q)}`),
    listWebhookEndpoints: (accountId: string, q: { page_size?: string; page_token?: string }) =>
      call<Page>('GET', `/accounts/${enc(accountId)}/webhook_endpoints${query(q)}`),
    setWebhookEndpointEnabled: (accountId: string, endpointId: string, enabled: boolean) =>
      call<Record<string, unknown>>('PATCH', `/accounts/${enc(accountId)}/webhook_endpoints/${enc(endpointId)}`, { enabled }),
    listWebhookDeliveries: (accountId: string, endpointId: string, q: { page_size?: string; page_token?: string }) =>
      call<Page>('GET', `/accounts/${enc(accountId)}/webhook_endpoints/${enc(endpointId)}/deliveries${query(q)}`),
    replayWebhookDelivery: (accountId: string, endpointId: string, deliveryId: string) =>
      call<Record<string, unknown>>(
        'POST',
        `/accounts/${enc(accountId)}/webhook_endpoints/${enc(endpointId)}/deliveries/${enc(deliveryId)}/replay`,
      ),
    flowNps: (accountId: string, flowId: string, q: Omit<ResponseFilters, 'customer_external_id'>) =>
      call<Record<string, unknown>>('GET', `/accounts/${enc(accountId)}/flows/${enc(flowId)}/nps${query(q)}`),
    getLink: (code: string) => call<Record<string, unknown>>('GET', `/links/${enc(code)}`),
    linkStats: (accountId: string, code: string, q: { from?: string; to?: string; interval?: string; time_zone?: string }) =>
      call<Record<string, unknown>>('GET', `/accounts/${enc(accountId)}/links/${enc(code)}/stats${query(q)}`),
    listAccountLinks: (
      accountId: string,
      q: { domain?: string; tag?: string; created_after?: string; page_size?: string; page_token?: string },
    ) => call<Page>('GET', `/accounts/${enc(accountId)}/links${query(q)}`),
    createUser: (accountId: string, user: { email: string; name: string; role: string; password?: string }) =>
      call<ConsoleUser>('POST', `/accounts/${enc(accountId)}/users`, user),
    listUsers: (accountId: string, q: { page_size?: string; page_token?: string }) =>
      call<Page<ConsoleUser>>('GET', `/accounts/${enc(accountId)}/users${query(q)}`),
    getUser: (accountId: string, userId: string) => call<ConsoleUser>('GET', `/accounts/${enc(accountId)}/users/${enc(userId)}`),
    updateUser: (accountId: string, userId: string, patch: { name?: string; role?: string }) =>
      call<ConsoleUser>('PATCH', `/accounts/${enc(accountId)}/users/${enc(userId)}`, patch),
    deleteUser: (accountId: string, userId: string) => call<null>('DELETE', `/accounts/${enc(accountId)}/users/${enc(userId)}`),
    createOperator: (operator: { email: string; name: string; password?: string }) => call<ConsoleUser>('POST', '/operators', operator),
    listOperators: (q: { page_size?: string; page_token?: string }) => call<Page<ConsoleUser>>('GET', `/operators${query(q)}`),
    getAccountLink: (accountId: string, code: string) =>
      call<Record<string, unknown>>('GET', `/accounts/${enc(accountId)}/links/${enc(code)}`),
  };
}

export type AdminClient = ReturnType<typeof adminClient>;

/** The responses' filters (docs/api.md "Responses"). */
type ResponseFilters = { channel_id?: string; customer_external_id?: string; since?: string; until?: string };
