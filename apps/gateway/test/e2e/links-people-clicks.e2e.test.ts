import { describe, expect, it } from 'vitest';
import { linkClient, person } from './link-client.js';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

const { api, shorten, tap } = linkClient();
const sms = smsClient();

// Who follows a link besides the person it was sent to: a crawler, the previews iMessage and
// WhatsApp draw of every link they show, a tool. Real user agents, as these clients send them.
const NOT_PEOPLE = {
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  iMessagePreview: 'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  whatsApp: 'WhatsApp/2.23.20.0 A',
  curl: 'curl/8.4.0',
};

const clicksOf = async (code: string) =>
  Number((await api.request('GET', `/admin/v1/links/${code}`, { headers: { authorization: `Bearer ${api.adminToken}` } })).json.clicks);

/** Everything but the person, then the person twice within the minute: each answered the same redirect. */
async function tapAsEveryone(code: string) {
  const hops = [
    ...(await Promise.all(Object.values(NOT_PEOPLE).map((ua) => tap(code, 'GET', { 'user-agent': ua })))),
    await tap(code), // fetch's own user agent, a tool's
    await tap(code, 'HEAD', person()),
    await tap(code, 'GET', person()),
    await tap(code, 'GET', person()),
  ];
  return hops.map((h) => `${h.status} ${h.headers.get('location')}`);
}

const settle = () => new Promise((r) => setTimeout(r, 1_500)); // a wrongly counted click would arrive by now

describe('what counts as a click, end to end', () => {
  it("counts a person's first GET of a link in a minute: not bots, previews, tools, HEAD or the repeat", async () => {
    const url = 'https://example.com/people-only';
    const code = String((await shorten({ url })).json.id);
    const hops = await tapAsEveryone(code);
    expect(new Set(hops)).toEqual(new Set([`302 ${url}`]));
    await waitFor('the click to be counted', async () => ((await clicksOf(code)) >= 1 ? true : undefined), 20_000);
    await settle();
    expect(await clicksOf(code)).toBe(1);
  }, 40_000);

  it("moves a sharing's funnel for the recipient who tapped, not for the one whose link was only previewed", async () => {
    const setup = await sms.newCampaign('Merhaba, ziyaretinizi değerlendirin: {{link}}');
    const [tapper, previewed] = [randomPhone(), randomPhone()];
    const res = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [tapper, previewed] });
    expect(res.status, res.text).toBe(200);
    const sharingId = String(res.json.id);
    const codeOf = async (phone: string) => {
      const text = await waitFor(`the SMS to ${phone}`, async () => {
        return (await sms.outbox(setup.account.id, phone)).data.find((m) => m.sharing_id === sharingId)?.text;
      });
      return text.split('/').at(-1)!;
    };
    const [tapped, onlyPreviewed] = [await codeOf(tapper), await codeOf(previewed)];

    for (const ua of Object.values(NOT_PEOPLE)) expect((await tap(onlyPreviewed, 'GET', { 'user-agent': ua })).status).toBe(302);
    expect(new Set(await tapAsEveryone(tapped)).size).toBe(1);

    await waitFor('the funnel to count the click', async () => {
      const funnel = (await sms.sharing(setup.account.apiToken, sharingId)).json.funnel as { clicked: number } | undefined;
      return funnel?.clicked === 1 ? true : undefined;
    });
    await settle();
    expect((await sms.sharing(setup.account.apiToken, sharingId)).json.funnel).toEqual({ clicked: 1, answered: 0 });
    expect([await clicksOf(tapped), await clicksOf(onlyPreviewed)]).toEqual([1, 0]);
  }, 60_000);
});
