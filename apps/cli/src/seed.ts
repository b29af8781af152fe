import { AdminApiError, type AdminClient } from './admin-client.js';

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
  const res = await doFetch(`${baseUrl.replace(/\/$/, '')}/external/v1/link_channels/${encodeURIComponent(channelId)}/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ customer: DEMO_CUSTOMER }),
  });
  const body = (await res.json()) as { link?: string };
  if (!res.ok || !body.link) throw new AdminApiError(res.status, body);
  return body.link;
}

/**
 * A demo account with both token kinds, a node, a flow and a link channel, a personal survey
 * link of the demo customer, and an SMS campaign of the same node and flow: everything an
 * integrator needs to try the API, open the page and send a sharing.
 */
export async function seed(client: AdminClient, opts: { baseUrl: string; fetch?: typeof fetch }) {
  const account = await client.createAccount('Demo shop');
  const apiToken = await client.createToken(account.id, 'api', 'demo api token');
  const integrationToken = await client.createToken(account.id, 'integration', 'demo integration token');
  const node = await client.createNode(account.id, 'Demo store');
  const flow = await client.createFlow(account.id, DEMO_FLOW);
  const channel = await client.createChannel(account.id, { name: 'Demo web', node_id: node.id, flow_id: flow.id, link_ttl_days: 7 });
  const surveyLink = await personalLink(opts.baseUrl, integrationToken.token, channel.id, opts.fetch ?? fetch);
  const campaign = await client.createCampaign(account.id, {
    name: 'Demo SMS',
    node_id: node.id,
    flow_id: flow.id,
    message_template: DEMO_SMS_TEMPLATE,
    link_ttl_days: 7,
  });
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
  };
}
