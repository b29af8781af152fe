import { randomBytes } from 'node:crypto';
import { AdminApiError, requestJson, type AdminClient } from './admin-client.js';

export const DEMO_FLOW = {
  name: 'Store visit',
  questions: [
    {
      key: 'nps',
      body: { en: 'How likely are you to recommend us to a friend?', tr: 'Bizi bir arkadaşınıza tavsiye etme olasılığınız nedir?' },
      style: 'nps',
    },
    {
      key: 'liked_most',
      body: { en: 'What did you like most?', tr: 'En çok neyi beğendiniz?' },
      style: 'single_choice',
      options: [
        { key: 'staff', body: { en: 'Our staff', tr: 'Çalışanlarımız' } },
        { key: 'prices', body: { en: 'Our prices', tr: 'Fiyatlarımız' } },
        { key: 'store', body: { en: 'The store', tr: 'Mağaza' } },
      ],
    },
    { key: 'comment', body: { en: 'Anything else you would like to tell us?' }, style: 'long_text' },
  ],
};

export const DEMO_SMS_TEMPLATE = 'Merhaba {{name}}, ziyaretinizi değerlendirir misiniz? {{link}}';

export const DEMO_CUSTOMER = {
  external_id: 'demo-customer-1',
  email: 'demo@example.com',
  phone_number: '+905321234567',
  name: 'Demo Customer',
};

/** A personal link through the public API, as an integrator makes one with the integration token. */
async function personalLink(baseUrl: string, token: string, channelId: string, doFetch: typeof fetch) {
  const path = `/external/v1/link_channels/${encodeURIComponent(channelId)}/links`;
  const body = await requestJson<{ link?: string }>(doFetch, baseUrl, path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ customer: DEMO_CUSTOMER }),
  });
  if (!body.link) throw new AdminApiError(200, body, `POST ${path}`);
  return body.link;
}

const SEED_STEPS = 9;

/** The operator seed makes while the deployment has none (docs/api.md "Users and operators"). */
export const SEED_OPERATOR_EMAIL = 'operator@localhost';

/**
 * A demo account with both token kinds, a node, a flow and a link channel, a personal survey
 * link of the demo customer, and an SMS campaign of the same node and flow: everything an
 * integrator needs to try the API, open the page and send a sharing. `progress` hears each step
 * once it is done (feedbackctl prints them to stderr, so stdout stays the JSON below).
 */
export async function seed(client: AdminClient, opts: { baseUrl: string; fetch?: typeof fetch; progress?: (step: string) => void }) {
  let done = 0;
  const progress = (step: string) => opts.progress?.(`[${++done}/${SEED_STEPS}] ${step}`);
  const account = await client.createAccount('Demo shop');
  progress(`account ${account.id} created`);
  const apiToken = await client.createToken(account.id, 'api', 'demo api token');
  progress(`api token ${apiToken.id} created`);
  const integrationToken = await client.createToken(account.id, 'integration', 'demo integration token');
  progress(`integration token ${integrationToken.id} created`);
  const node = await client.createNode(account.id, 'Demo store');
  progress(`node ${node.id} created`);
  const flow = await client.createFlow(account.id, DEMO_FLOW);
  progress(`flow ${flow.id} created`);
  const channel = await client.createChannel(account.id, { name: 'Demo web', node_id: node.id, flow_id: flow.id, link_ttl_days: 7 });
  progress(`channel ${channel.id} created`);
  const surveyLink = await personalLink(opts.baseUrl, integrationToken.token, channel.id, opts.fetch ?? fetch);
  progress(`survey link ${surveyLink} made`);
  const campaign = await client.createCampaign(account.id, {
    name: 'Demo SMS',
    node_id: node.id,
    flow_id: flow.id,
    message_template: DEMO_SMS_TEMPLATE,
    link_ttl_days: 7,
  });
  progress(`SMS campaign ${campaign.id} created`);
  const operator = await firstOperator(client);
  progress(
    operator.password ? `operator ${operator.email} created (its password is printed only now)` : `operator ${operator.email} exists`,
  );
  return {
    account_id: account.id,
    api_token: apiToken.token,
    integration_token: integrationToken.token,
    node_id: node.id,
    flow_id: flow.id,
    channel_id: channel.id,
    customer: DEMO_CUSTOMER,
    survey_link: surveyLink,
    sms_campaign_id: campaign.id,
    operator,
  };
}

/**
 * The deployment's first operator, made with a generated password (never a default one) while
 * there is no operator; otherwise the first one listed, without a password.
 */
async function firstOperator(client: AdminClient): Promise<{ email: string; password: string | null }> {
  const existing = (await client.listOperators({ page_size: '1' })).data[0];
  if (existing) return { email: existing.email, password: null };
  const password = randomBytes(18).toString('base64url');
  try {
    await client.createOperator({ email: SEED_OPERATOR_EMAIL, name: 'Operator', password });
    return { email: SEED_OPERATOR_EMAIL, password };
  } catch (err) {
    // Another seed made it in the meantime.
    if (err instanceof AdminApiError && err.status === 409) return { email: SEED_OPERATOR_EMAIL, password: null };
    throw err;
  }
}
