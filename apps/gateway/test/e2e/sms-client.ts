import { randomInt } from 'node:crypto';
import { stackClient } from './stack-client.js';

/** SMS sharing as an integrator drives it, plus the admin calls that set it up. */
export function smsClient() {
  const api = stackClient();

  /** A fresh account with both tokens, a node, a flow and an SMS campaign. */
  async function newCampaign(template = 'Merhaba {{name}}, ziyaretinizi değerlendirin: {{link}}') {
    const account = await api.newAccount('sms-e2e');
    const node = await api.admin('POST', `/accounts/${account.id}/nodes`, { name: 'Kadıköy store' });
    const flow = await api.admin('POST', `/accounts/${account.id}/flows`, {
      name: 'After visit',
      questions: [{ key: 'nps', body: { en: 'How likely are you to recommend us?' }, style: 'nps' }],
    });
    const campaign = await api.admin('POST', `/accounts/${account.id}/sms_campaigns`, {
      name: 'After-visit SMS',
      node_id: node.id,
      flow_id: flow.id,
      message_template: template,
    });
    return { account, nodeId: node.id!, flowId: flow.id!, campaignId: campaign.id!, campaign };
  }

  function share(token: string, campaignId: string, body: unknown, headers: Record<string, string> = {}) {
    return api.request('POST', `/v1/sms_campaigns/${campaignId}/sms_sharings`, {
      headers: { authorization: `Token token=${token}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  function sharing(token: string, sharingId: string) {
    return api.request('GET', `/v1/sms_sharings/${sharingId}`, { headers: { authorization: `Token token=${token}` } });
  }

  async function outbox(accountId: string, phone?: string) {
    const q = phone ? `?phone=${encodeURIComponent(phone)}` : '';
    return (await api.admin('GET', `/accounts/${accountId}/sms_messages${q}`)) as unknown as {
      data: {
        id: string;
        sharing_id: string;
        phone: string;
        text: string;
        status: string;
        created_at: string;
        encoding: string | null;
        segments: number | null;
      }[];
      next_page_token: string | null;
    };
  }

  return { ...api, newCampaign, share, sharing, outbox };
}

/** A valid Turkish mobile number nobody else's test uses: +90 532 xxx xx xx. */
export const randomPhone = () => `+90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
