import { randomBytes, randomInt } from 'node:crypto';
import { stackClient } from './stack-client.js';

/**
 * An account with one real resource of every kind the public and admin routes take by id, made
 * the way an operator and an integrator make them. `ids` is keyed by the OpenAPI path parameter
 * names (`flowId`, `node_id`, ...): the tenancy matrix and the schemathesis runs look ids up
 * there by name, so a route whose parameter is missing here fails loudly instead of going
 * untested. `secrets` holds what must never appear in an answer to anyone else.
 */
export interface TenantFixture {
  accountId: string;
  apiToken: string;
  integrationToken: string;
  ids: Record<string, string>;
  secrets: string[];
}

export async function populatedAccount(label: string): Promise<TenantFixture> {
  const stack = stackClient();
  // 503 is the documented "try again" of a busy or restarting service: the fixture retries it
  // (the public calls below are safe to repeat: the same customer gets the same link, the
  // sharing has an idempotency key, a second directory is harmless).
  const api = {
    ...stack,
    async request(...args: Parameters<typeof stack.request>) {
      for (let attempt = 1; ; attempt++) {
        const res = await stack.request(...args);
        if (res.status !== 503 || attempt >= 5) return res;
        await new Promise((r) => setTimeout(r, 1000 * attempt));
      }
    },
    async admin(method: string, path: string, body?: unknown) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await stack.admin(method, path, body);
        } catch (err) {
          if (attempt >= 5 || !/ → 503 /.test(String(err))) throw err;
          await new Promise((r) => setTimeout(r, 1000 * attempt));
        }
      }
    },
  };
  const tag = `${label}-${randomBytes(4).toString('hex')}`;
  const account = await api.newAccount(`tenant ${tag}`);
  const node = await api.admin('POST', `/accounts/${account.id}/nodes`, { name: `node ${tag}` });
  const flow = await api.admin('POST', `/accounts/${account.id}/flows`, {
    name: `flow ${tag}`,
    questions: [{ key: 'nps', body: { en: `question ${tag}` }, style: 'nps' }],
  });
  const channel = await api.admin('POST', `/accounts/${account.id}/channels`, {
    name: `channel ${tag}`,
    node_id: node.id,
    flow_id: flow.id,
    link_ttl_days: 7,
  });
  const campaign = await api.admin('POST', `/accounts/${account.id}/sms_campaigns`, {
    name: `campaign ${tag}`,
    node_id: node.id,
    flow_id: flow.id,
    message_template: 'Hello {{name}}: {{link}}',
  });
  const domain = `go-${tag}.example.com`;
  await api.admin('POST', `/accounts/${account.id}/domains`, { domain });

  const integration = { authorization: `Bearer ${account.integrationToken}`, 'content-type': 'application/json' };
  const apiAuth = { authorization: `Bearer ${account.apiToken}` };
  const customerEmail = `customer-${tag}@example.com`;
  const link = await api.request('POST', `/external/v1/link_channels/${channel.id}/links`, {
    headers: integration,
    body: JSON.stringify({ customer: { external_id: `cust-${tag}`, email: customerEmail, name: `Customer ${tag}` }, short_link: true }),
  });
  if (link.status !== 200) throw new Error(`personal link: ${link.status} ${link.text}`);
  const surveyToken = new URL(String(link.json.link)).pathname.split('/').pop()!;
  const code = new URL(String(link.json.short_link)).pathname.slice(1);

  const dir = await api.request('POST', `/v2/file_service/${account.id}/directories`, {
    headers: { ...apiAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `dir ${tag}` }),
  });
  if (dir.status !== 201) throw new Error(`directory: ${dir.status} ${dir.text}`);
  const directoryId = String((dir.json.data as Record<string, unknown>).id);
  const form = new FormData();
  form.append('filename', `file-${tag}.csv`);
  form.append('file', new Blob([`phone\n+90532${randomInt(1_000_000, 9_999_999)}\n`]), 'x.csv');
  const upload = await fetch(`${api.baseUrl}/v2/file_service/directory/${directoryId}/files`, {
    method: 'POST',
    headers: apiAuth,
    body: form,
  });
  const uploaded = (await upload.json()) as { data?: Record<string, unknown> };
  if (upload.status !== 201 || !uploaded.data) throw new Error(`upload: ${upload.status} ${JSON.stringify(uploaded)}`);
  const blobPath = new URL(String(uploaded.data.url)).pathname.split('/');

  const sharing = await api.request('POST', `/v1/sms_campaigns/${campaign.id}/sms_sharings`, {
    headers: { ...apiAuth, 'content-type': 'application/json', 'idempotency-key': `tenant-${tag}` },
    body: JSON.stringify({ phone_numbers: [`+90532${randomInt(1_000_000, 9_999_999)}`] }),
  });
  if (sharing.status !== 200) throw new Error(`sms sharing: ${sharing.status} ${sharing.text}`);

  // A phone on the account's SMS opt-out list (DELETE /v1/sms_opt_outs/{phone}).
  const optedOut = `+90533${randomInt(1_000_000, 9_999_999)}`;
  const optOut = await api.request('POST', '/v1/sms_opt_outs', {
    headers: { ...apiAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ phone_numbers: [optedOut] }),
  });
  if (optOut.status !== 200) throw new Error(`sms opt-out: ${optOut.status} ${optOut.text}`);

  // The account's own SMS provider (GET .../sms_provider answers it): the API listener's /health,
  // which answers 200 to anything, so SMS of the account sent through it go nowhere.
  const providerPassword = `pw-${tag}`;
  await api.admin('PUT', `/accounts/${account.id}/sms_provider`, {
    url: `${api.baseUrl}/health`,
    method: 'GET',
    sender: 'TENANT',
    query: { user: `user-${tag}`, password: providerPassword, to: '{to}', text: '{text}', from: '{sender}' },
  });

  // A response (GET /v1/responses/{response_id}): another customer answers on the survey page, so
  // the link above (`token`) stays open for the routes that take it.
  const answering = await api.request('POST', `/external/v1/link_channels/${channel.id}/links`, {
    headers: integration,
    body: JSON.stringify({ customer: { external_id: `answering-${tag}` } }),
  });
  if (answering.status !== 200) throw new Error(`personal link: ${answering.status} ${answering.text}`);
  const answeringLink = String(answering.json.link);
  const answered = await fetch(answeringLink, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(answeringLink).origin },
    body: 'n.nps=9',
  });
  if (answered.status !== 200) throw new Error(`survey page answer: ${answered.status}`);
  const responses = await api.request('GET', `/v1/responses?customer_external_id=answering-${tag}`, { headers: apiAuth });
  const responseId = (responses.json?.data as Array<{ id: string }> | undefined)?.[0]?.id;
  if (!responseId) throw new Error(`responses list: ${responses.status} ${responses.text}`);

  // A webhook endpoint with one delivery (the webhook routes' {endpoint_id} and {delivery_id}): the
  // API listener's /health again, which answers 200 to anything.
  const webhook = await api.request('POST', '/v1/webhook_endpoints', {
    headers: { ...apiAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${api.baseUrl}/health`, events: ['survey.answered'], description: `hook ${tag}` }),
  });
  if (webhook.status !== 201) throw new Error(`webhook endpoint: ${webhook.status} ${webhook.text}`);
  const endpointId = String((webhook.json.endpoint as Record<string, unknown>).id);
  const webhookTest = await api.request('POST', `/v1/webhook_endpoints/${endpointId}/test`, { headers: apiAuth });
  if (webhookTest.status !== 202) throw new Error(`webhook test: ${webhookTest.status} ${webhookTest.text}`);

  // A data erasure request (GET /v1/data_erasures/{data_erasure_id}), of a person the account never
  // had, so nothing above is erased.
  const erasure = await api.request('POST', '/v1/data_erasures', {
    headers: { ...apiAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ external_id: `nobody-${tag}` }),
  });
  if (erasure.status !== 202) throw new Error(`data erasure: ${erasure.status} ${erasure.text}`);

  // A console user of the account (the admin users routes' {user_id}); e-mails are unique in the deployment.
  const userEmail = `user-${tag}@example.com`;
  const user = await api.admin('POST', `/accounts/${account.id}/users`, { email: userEmail, name: `User ${tag}`, role: 'viewer' });

  const ids: Record<string, string> = {
    account_id: account.id,
    token_id: account.apiTokenId,
    flowId: flow.id!,
    node_id: node.id!,
    channel_id: channel.id!,
    campaign_id: campaign.id!,
    sharing_id: String(sharing.json.id),
    directory_id: directoryId,
    file_entry_id: String(uploaded.data.id),
    blob_token: blobPath[blobPath.length - 2]!,
    filename: decodeURIComponent(blobPath[blobPath.length - 1]!),
    token: surveyToken,
    code,
    domain,
    phone: optedOut,
    flow_id: flow.id!,
    response_id: responseId,
    endpoint_id: endpointId,
    delivery_id: String((webhookTest.json.delivery as Record<string, unknown>).id),
    data_erasure_id: String(erasure.json.id),
    user_id: user.id!,
  };
  return {
    accountId: account.id,
    apiToken: account.apiToken,
    integrationToken: account.integrationToken,
    ids,
    // Names only this account has: any of them in an answer to another identity is a leak.
    secrets: [...new Set([...Object.values(ids), tag, customerEmail, providerPassword, userEmail])],
  };
}
