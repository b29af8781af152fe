/** A small client of the admin API (docs/api.md "Admin API"). Errors carry the API's error body. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`admin API answered ${status}: ${JSON.stringify(body)}`);
  }
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
}

export interface DirectoryBinding {
  campaign_id: string;
  directory_id: string;
  file_name: string;
  created_at: string;
  updated_at: string;
}

export interface AdminClientOptions {
  baseUrl: string;
  adminToken: string;
  fetch?: typeof fetch;
}

export function adminClient(opts: AdminClientOptions) {
  const doFetch = opts.fetch ?? fetch;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await doFetch(`${opts.baseUrl.replace(/\/$/, '')}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${opts.adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) throw new AdminApiError(res.status, parsed);
    return parsed as T;
  }
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
    listCampaigns: (accountId: string) => call<{ data: SmsCampaign[] }>('GET', `/accounts/${enc(accountId)}/sms_campaigns`),
    bindDirectory: (accountId: string, campaignId: string, binding: { directory_id: string; file_name?: string }) =>
      call<DirectoryBinding>('POST', `/accounts/${enc(accountId)}/sms_campaigns/${enc(campaignId)}/directories`, binding),
    listBindings: (accountId: string, campaignId: string) =>
      call<{ data: DirectoryBinding[] }>('GET', `/accounts/${enc(accountId)}/sms_campaigns/${enc(campaignId)}/directories`),
    unbindDirectory: (accountId: string, campaignId: string, directoryId: string, fileName?: string) =>
      call<null>(
        'DELETE',
        `/accounts/${enc(accountId)}/sms_campaigns/${enc(campaignId)}/directories/${enc(directoryId)}${fileName ? `?file_name=${enc(fileName)}` : ''}`,
      ),
    putSmsProvider: (accountId: string, provider: Record<string, unknown>) =>
      call<Record<string, unknown>>('PUT', `/accounts/${enc(accountId)}/sms_provider`, provider),
    getSmsProvider: (accountId: string) => call<Record<string, unknown>>('GET', `/accounts/${enc(accountId)}/sms_provider`),
    deleteSmsProvider: (accountId: string) => call<null>('DELETE', `/accounts/${enc(accountId)}/sms_provider`),
  };
}

export type AdminClient = ReturnType<typeof adminClient>;
