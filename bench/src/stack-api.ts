/**
 * JSON calls to the running stack for a benchmark's fixtures. A busy shared machine can push a
 * call past the gateway's gRPC deadline: 503 is the documented "try again", so it is asked again
 * (eight times at most, waiting longer each time); any other status that is not `expect` stops the run.
 */
export async function callJson<T = Record<string, string>>(
  method: string,
  url: string,
  o: { headers?: Record<string, string>; body?: unknown; expect?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, {
      method,
      headers: { ...o.headers, ...(o.body !== undefined && { 'content-type': 'application/json' }) },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    if (o.expect ? res.status === o.expect : res.ok) return (await res.json()) as T;
    if (res.status !== 503 || attempt >= 8) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 1000 * attempt));
  }
}

/** POST to the admin API (/admin/v1) with the stack's admin token. */
export const adminPost =
  (baseUrl: string, adminToken: string) =>
  <T = Record<string, string>>(path: string, body: unknown) =>
    callJson<T>('POST', `${baseUrl}/admin/v1${path}`, { headers: { authorization: `Bearer ${adminToken}` }, body });

/** An SMS campaign of the account, with the node and the one-question NPS flow it needs: the benchmarks' fixture. */
export async function benchCampaign(admin: ReturnType<typeof adminPost>, accountId: string) {
  const node = await admin(`/accounts/${accountId}/nodes`, { name: 'bench node' });
  const flow = await admin(`/accounts/${accountId}/flows`, {
    name: 'bench flow',
    questions: [{ key: 'nps', body: { en: 'Would you recommend us?' }, style: 'nps' }],
  });
  return admin(`/accounts/${accountId}/sms_campaigns`, {
    name: 'bench campaign',
    node_id: node.id,
    flow_id: flow.id,
    message_template: 'Hi {{link}}',
  });
}
