import { stackClient } from './stack-client.js';

export const SIMPLE_FLOW = {
  name: 'Store visit',
  questions: [
    { key: 'nps', body: { en: 'How likely are you to recommend us?', tr: 'Bizi tavsiye eder misiniz?' }, style: 'nps' },
    { key: 'comment', body: { en: 'Anything else?' }, style: 'long_text' },
  ],
};

/** Surveys as an integrator drives them: an account with a node, a flow and a link channel. */
export function surveyClient() {
  const api = stackClient();
  const json = { 'content-type': 'application/json' };

  async function newSurveyAccount(opts: { flow?: unknown; nodeName?: string; ttlDays?: number } = {}) {
    const account = await api.newAccount('surveys e2e');
    const node = await api.admin('POST', `/accounts/${account.id}/nodes`, { name: opts.nodeName ?? 'Kadıköy store' });
    const flow = await api.admin('POST', `/accounts/${account.id}/flows`, opts.flow ?? SIMPLE_FLOW);
    const channel = await api.admin('POST', `/accounts/${account.id}/channels`, {
      name: 'web',
      node_id: node.id,
      flow_id: flow.id,
      link_ttl_days: opts.ttlDays ?? 7,
    });
    return { ...account, nodeId: node.id!, nodeName: node.name!, flowId: flow.id!, flowName: flow.name!, channelId: channel.id! };
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, ...json });

  const personalLink = (token: string, channelId: string, body: unknown) =>
    api.request('POST', `/external/v1/link_channels/${channelId}/links`, { headers: bearer(token), body: JSON.stringify(body) });

  const activeSurveys = (token: string, nodeId: string, body: unknown, headers: Record<string, string> = bearer(token)) =>
    api.request('POST', `/external/v1/nodes/${encodeURIComponent(nodeId)}/active_surveys`, { headers, body: JSON.stringify(body) });

  /** A form POST as the page's own browser sends it. */
  const submitPage = (link: string, form: string) =>
    fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(link).origin },
      body: form,
    });

  return { api, newSurveyAccount, personalLink, activeSurveys, submitPage, bearer };
}
