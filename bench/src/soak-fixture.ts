import { randomBytes } from 'node:crypto';
import type { StackFile } from '@feedback/dev-stack';
import { FLOW_QUESTIONS } from './flow-details.bench.js';
import { adminPost, callJson } from './stack-api.js';

/** What the soak's requests use, all made through the API the way an operator and an integrator make them. */
export interface SoakFixture {
  apiToken: string;
  integrationToken: string;
  flowId: string;
  nodeId: string;
  directoryId: string;
  /** Customers with one active survey each (a personal link of the link channel). */
  externalIds: string[];
  /** Short codes: each customer's personal short link and as many made with POST /shorten. */
  codes: string[];
}

/**
 * A fresh account with both token kinds, a flow, a node, a link channel, `customers` customers
 * (none without `surveys`: the mix leaves the survey service out) and a directory.
 */
export async function soakFixture(stack: StackFile, customers: number, surveys: boolean): Promise<SoakFixture> {
  if (!stack.base_url || !stack.admin_token || !stack.shortener_url)
    throw new Error('the stack file has no base_url/admin_token: is the gateway up?');
  const base = stack.base_url;
  const admin = adminPost(base, stack.admin_token);
  const tag = randomBytes(4).toString('hex');
  const account = await admin('/accounts', { name: `soak ${tag}` });
  const apiToken = (await admin(`/accounts/${account.id}/tokens`, { kind: 'api', name: 'soak' })).token!;
  const integrationToken = (await admin(`/accounts/${account.id}/tokens`, { kind: 'integration', name: 'soak' })).token!;
  const node = await admin(`/accounts/${account.id}/nodes`, { name: `Soak store ${tag}` });
  const flow = await admin(`/accounts/${account.id}/flows`, {
    name: `Soak flow ${tag}`,
    questions: FLOW_QUESTIONS,
  });
  const channel = await admin(`/accounts/${account.id}/channels`, {
    name: `Soak channel ${tag}`,
    node_id: node.id,
    flow_id: flow.id,
    link_ttl_days: 30,
  });

  const externalIds: string[] = [];
  const codes: string[] = [];
  for (let i = 0; i < customers; i++) {
    if (surveys) {
      const externalId = `soak-${tag}-${i}`;
      const link = await callJson<{ short_link: string }>('POST', `${base}/external/v1/link_channels/${channel.id}/links`, {
        headers: { authorization: `Bearer ${integrationToken}` },
        body: { customer: { external_id: externalId, name: `Customer ${i}` }, short_link: true },
      });
      externalIds.push(externalId);
      codes.push(new URL(link.short_link).pathname.slice(1));
    }
    const short = await callJson<{ id: string }>('POST', `${stack.shortener_url}/shorten`, {
      body: { url: `https://survey.example.com/s/${tag}/${i}?utm_source=sms` },
    });
    codes.push(short.id);
  }

  const directory = await callJson<{ data: { id: string } }>('POST', `${base}/v2/file_service/${account.id}/directories`, {
    headers: { authorization: `Bearer ${apiToken}` },
    body: { name: `soak ${tag}` },
    expect: 201,
  });
  return { apiToken, integrationToken, flowId: flow.id!, nodeId: node.id!, directoryId: directory.data.id, externalIds, codes };
}
