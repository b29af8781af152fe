import type { AdminClient } from './admin-client.js';

export const DEMO_FLOW = {
  name: 'Store visit',
  questions: [
    { key: 'nps', body: { en: 'How likely are you to recommend us to a friend?', tr: 'Bizi bir arkadaşınıza tavsiye etme olasılığınız nedir?' }, style: 'nps' },
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

/** A demo account with both token kinds, a node and a flow: everything an integrator needs to try the API. */
export async function seed(client: AdminClient) {
  const account = await client.createAccount('Demo shop');
  const apiToken = await client.createToken(account.id, 'api', 'demo api token');
  const integrationToken = await client.createToken(account.id, 'integration', 'demo integration token');
  const node = await client.createNode(account.id, 'Demo store');
  const flow = await client.createFlow(account.id, DEMO_FLOW);
  return {
    account_id: account.id,
    api_token: apiToken.token,
    integration_token: integrationToken.token,
    node_id: node.id,
    flow_id: flow.id,
  };
}
