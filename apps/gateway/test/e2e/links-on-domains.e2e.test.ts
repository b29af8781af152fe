import { beforeAll, describe, expect, it } from 'vitest';
import { linkClient } from './link-client.js';

// A customer domain carries its owner's brand: on the link listener, a Host that is a customer
// domain serves only the links made for it, and a link made for one is served only there. Links
// made without a domain (anonymous POST /shorten, and links stored before) keep working on every
// other host: 127.0.0.1 here, PUBLIC_SHORTENER_URL's host or an in-cluster name in a deployment.
const { api, base, shorten, tapOn } = linkClient();
const uniqueHost = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}.example.com`;

describe('short links bound to their domain', () => {
  let brand: string;
  let brandToken: string;
  const ownHost = new URL(base).host;

  beforeAll(async () => {
    const account = await api.newAccount('brand domain');
    brand = uniqueHost('brand');
    brandToken = account.apiToken;
    await api.admin('POST', `/accounts/${account.id}/domains`, { domain: brand });
  });

  const make = async (body: Record<string, unknown>, token?: string) => {
    const res = await shorten(body, { 'content-type': 'application/json', ...(token ? { authorization: `Token token=${token}` } : {}) });
    expect(res.status, res.text).toBe(200);
    return String(res.json.id);
  };

  it('an anonymous code is 404 under a brand domain (each time: the cache keys the host too), and redirects on the default host', async () => {
    const url = `https://attacker.example/phish/${Date.now()}`;
    const code = await make({ url });
    for (let i = 0; i < 2; i++) {
      expect(await tapOn(brand, code)).toMatchObject({ status: 404 });
      expect(await tapOn(`${brand.toUpperCase()}.:443`, code)).toMatchObject({ status: 404 });
    }
    // Resolved (and cached) on the default host first, still 404 on the brand's.
    expect(await tapOn(ownHost, code)).toEqual({ status: 302, location: url });
    expect(await tapOn(ownHost, code)).toEqual({ status: 302, location: url });
    expect(await tapOn(brand, code)).toMatchObject({ status: 404 });
    // A host that is no customer domain (another name the deployment is reached by) serves it.
    expect(await tapOn('shortener.feedback.svc.cluster.local:8081', code)).toEqual({ status: 302, location: url });
  });

  it("a brand's code redirects under its domain only: 404 on the default host and on another brand's", async () => {
    const url = `https://example.com/brand/${Date.now()}`;
    const code = await make({ url, domain: brand }, brandToken);
    expect(await tapOn(brand, code)).toEqual({ status: 302, location: url });
    expect(await tapOn(`${brand}:443`, code)).toEqual({ status: 302, location: url });
    expect(await tapOn(ownHost, code)).toMatchObject({ status: 404 });
    expect(await tapOn(uniqueHost('other'), code)).toMatchObject({ status: 404 });
  });

  it('a link stored without a domain field (made before domains existed) keeps working on the default host', async () => {
    const { MongoClient } = await import('mongodb');
    const client = new MongoClient(api.stack.mongo_url!);
    try {
      const code = `old${Math.random().toString(36).slice(2, 10)}`.replace(/[^A-Za-z0-9]/g, '');
      const url = `https://example.com/old/${code}`;
      await client
        .db('shortener')
        .collection<{ _id: string; full_url: string; account_id: null; created_at: Date }>('links')
        .insertOne({ _id: code, full_url: url, account_id: null, created_at: new Date() });
      expect(await tapOn(ownHost, code)).toEqual({ status: 302, location: url });
      expect(await tapOn(brand, code)).toMatchObject({ status: 404 });
    } finally {
      await client.close();
    }
  });
});
