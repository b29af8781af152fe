import { beforeAll, describe, expect, it } from 'vitest';
import { randomPhone, smsClient } from './sms-client.js';

// Attribute names and values are checked when a sharing or a preview is accepted, by the rule the
// survey service applies when it stores them (kit-core customer-attributes.ts): a refused one is a
// 400 naming the attribute now, never a message stuck `queued` after its event failed at dispatch.
describe('SMS attribute names are checked at accept time', () => {
  const sms = smsClient();
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  beforeAll(async () => {
    setup = await sms.newCampaign();
  });

  it('a sharing with an attribute named "$x" or "a.b", or an e-mail attribute that is not one, is 400 / 13000 naming it, and nothing is sent', async () => {
    for (const [attrs, name, why] of [
      [{ $x: '1' }, '$x', /^name must be/],
      [{ 'a.b': '1' }, 'a.b', /^name must be/],
      [{ email: 'not-mail' }, 'email', /e-mail/],
    ] as const) {
      const phone = randomPhone();
      const res = await sms.share(setup.account.apiToken, setup.campaignId, {
        phone_numbers: [phone],
        custom_attributes: { [phone]: attrs },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json.code).toBe(13000);
      const [field, message] = Object.entries(res.json.errors!)[0]!;
      expect(field).toMatch(new RegExp(`custom_attributes\\..*\\.${name.replace(/[$.]/g, '\\$&')}$`));
      expect(message).toMatch(why);
    }
  });

  it('a preview refuses the same names, naming the attribute', async () => {
    const res = await sms.request('POST', `/v1/sms_campaigns/${setup.campaignId}/preview`, {
      headers: { authorization: `Token token=${setup.account.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ custom_attributes: { $x: '1' } }),
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.code).toBe(13000);
    expect(Object.keys(res.json.errors!)).toEqual([expect.stringMatching(/custom_attributes\.\$x$/)]);
  });
});
