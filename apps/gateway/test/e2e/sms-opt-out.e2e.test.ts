import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

// The SMS opt-out list (docs/api.md "SMS opt-out") over HTTP against the running stack: the API,
// sharings and the dispatcher leaving its phones out, an inbound STOP through Kannel, and the
// survey page's button.
const sms = smsClient();
const auth = (token: string) => ({ authorization: `Token token=${token}`, 'content-type': 'application/json' });
const KANNEL_SH = fileURLToPath(new URL('../../../../infra/kannel.sh', import.meta.url));

function optOuts(token: string) {
  return {
    add: (phone_numbers: unknown[]) =>
      sms.request('POST', '/v1/sms_opt_outs', { headers: auth(token), body: JSON.stringify({ phone_numbers }) }),
    list: (query = '') => sms.request('GET', `/v1/sms_opt_outs${query}`, { headers: auth(token) }),
    remove: (phone: string) =>
      sms.request('DELETE', `/v1/sms_opt_outs/${encodeURIComponent(phone)}`, { headers: { authorization: `Token token=${token}` } }),
  };
}

async function recipientsOf(token: string, sharingId: string) {
  const res = await sms.sharing(token, sharingId);
  if (res.status !== 200) throw new Error(`GET sharing: ${res.status} ${res.text}`);
  return res.json.recipients as { phone: string; status: string }[];
}

describe('SMS opt-out end to end', () => {
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  let list: ReturnType<typeof optOuts>;
  beforeAll(async () => {
    setup = await sms.newCampaign('Anket: {{link}}');
    list = optOuts(setup.account.apiToken);
  });

  it('an opted-out phone is rejected by the next sharing (opted_out) and listed for its account only', async () => {
    const [out, kept] = [randomPhone(), randomPhone()];
    const local = `0${out.slice(3)}`;
    const added = await list.add([out, local, kept.slice(1)]);
    expect(added.status, added.text).toBe(200);
    expect(added.json).toEqual({ added: 2, already: 0 });
    expect((await list.add([out])).json).toEqual({ added: 0, already: 1 });

    const page = await list.list();
    expect(page.status, page.text).toBe(200);
    // One call, one date: in the order of their ids within it.
    expect(page.json.data).toEqual(
      [out, kept]
        .map((p) => p.slice(1))
        .sort()
        .reverse()
        .map((phone) => ({ phone, source: 'api', created_at: expect.stringMatching(/\+00:00$/) })),
    );
    expect(page.json.next_page_token).toBeNull();
    const first = await list.list('?page_size=1');
    expect(first.json.data).toHaveLength(1);
    const second = await list.list(`?page_size=1&page_token=${first.json.next_page_token}`);
    expect([...(first.json.data as unknown[]), ...(second.json.data as unknown[])]).toEqual(page.json.data);
    expect(second.json.next_page_token).toBeNull();
    expect(((await list.list(`?phone=${encodeURIComponent(local)}`)).json.data as { phone: string }[]).map((o) => o.phone)).toEqual([
      out.slice(1),
    ]);

    // Another account's list does not show them, nor does its sharing reject them.
    const other = await sms.newCampaign('Anket: {{link}}');
    expect((await optOuts(other.account.apiToken).list()).json).toEqual({ data: [], next_page_token: null });

    // Taken off again: the phone may be texted.
    expect((await list.remove(kept)).status).toBe(204);
    const res = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [local, kept] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ accepted: 1, rejected: 1, rejected_phones: [{ phone: local, reason: 'opted_out' }] });
    const theirs = await sms.share(other.account.apiToken, other.campaignId, { phone_numbers: [out] });
    expect(theirs.json).toMatchObject({ accepted: 1, rejected: 0 });

    await waitFor('the kept phone’s SMS', async () => ((await sms.outbox(setup.account.id, kept)).data.length > 0 ? true : undefined));
    await waitFor('the other account’s SMS', async () => ((await sms.outbox(other.account.id, out)).data.length > 0 ? true : undefined));
    expect((await sms.outbox(setup.account.id, out)).data).toEqual([]);
  }, 60_000);

  it('400 names each invalid phone and adds none; 404 on DELETE of a phone not on the list', async () => {
    const good = randomPhone();
    const bad = await list.add([good, '12', 'abc']);
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual({
      'phone_numbers.12': 'too_short',
      'phone_numbers.abc': expect.stringMatching(/^not_a_number|invalid_number$/),
    });
    expect((await list.list(`?phone=${encodeURIComponent(good)}`)).json.data).toEqual([]);

    const absent = await list.remove(good);
    expect(absent.status).toBe(404);
    expect(absent.json.errors).toEqual({ phone: good });
    expect((await list.remove('12')).status).toBe(400);
    expect((await sms.request('GET', '/v1/sms_opt_outs', {})).status).toBe(401);
  });

  it('a recipient opted out after its sharing was accepted, before its turn, ends opted_out and is never handed to the provider', async () => {
    const [out, kept] = [randomPhone(), randomPhone()];
    const sendAt = new Date(Date.now() + 8_000).toISOString();
    const res = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [out, kept], send_at: sendAt });
    expect(res.status, res.text).toBe(200);
    expect(res.json.accepted).toBe(2);
    const id = res.json.id as string;
    expect((await list.add([out])).json).toEqual({ added: 1, already: 0 });

    const done = await waitFor(
      'both recipients to reach an outcome',
      async () => {
        const r = await recipientsOf(setup.account.apiToken, id);
        return r.every((x) => !['scheduled', 'queued', 'sending'].includes(x.status)) ? r : undefined;
      },
      60_000,
    );
    expect(Object.fromEntries(done.map((r) => [r.phone, r.status]))).toEqual({
      [out.slice(1)]: 'opted_out',
      [kept.slice(1)]: expect.stringMatching(/^(sent|delivered)$/),
    });
    expect((await sms.outbox(setup.account.id, out)).data).toEqual([]);
    expect((await sms.outbox(setup.account.id, kept)).data.map((m) => m.sharing_id)).toEqual([id]);
  }, 90_000);

  it('the survey page of an SMS link has "do not text me again", which puts the phone on the account’s list', async () => {
    const phone = randomPhone();
    const res = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [phone] });
    expect(res.status, res.text).toBe(200);
    const message = await waitFor('the SMS', async () => (await sms.outbox(setup.account.id, phone)).data[0]);
    const short = message.text.replace('Anket: ', '');
    const surveyUrl = (await fetch(short, { redirect: 'manual' })).headers.get('location')!;
    const page = await fetch(`${surveyUrl}?lang=en`);
    const html = await page.text();
    const action =
      /<form method="post" action="([^"]+)" class="opt-out"><button type="submit" class="secondary">Do not text me again<\/button>/.exec(
        html,
      )?.[1];
    expect(action, html.slice(-600)).toBeDefined();

    const target = new URL(action!.replaceAll('&amp;', '&'), surveyUrl);
    const crossSite = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const posted = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain('No more text messages');
    expect((await list.list(`?phone=${encodeURIComponent(phone)}`)).json.data).toEqual([
      { phone: phone.slice(1), source: 'survey_page', created_at: expect.any(String) },
    ]);
  }, 60_000);
});

describe('an inbound STOP through Kannel', () => {
  let started = false;
  beforeAll(() => {
    started = !execFileSync(KANNEL_SH, ['status'], { encoding: 'utf8' }).startsWith('kannel: up');
    if (started) execFileSync(KANNEL_SH, ['start'], { stdio: ['ignore', 'ignore', 'inherit'] });
  });
  afterAll(() => {
    if (started) execFileSync(KANNEL_SH, ['stop'], { stdio: 'ignore' });
  });

  it('puts the sender on the list of every account that texted it (source keyword), and of no other', async () => {
    const phone = randomPhone();
    const [a, b, c] = [await sms.newCampaign('A {{link}}'), await sms.newCampaign('B {{link}}'), await sms.newCampaign('C {{link}}')];
    for (const s of [a, b]) expect((await sms.share(s.account.apiToken, s.campaignId, { phone_numbers: [phone] })).status).toBe(200);
    for (const s of [a, b])
      await waitFor('the SMS', async () => ((await sms.outbox(s.account.id, phone)).data.length > 0 ? true : undefined));

    // The phone answers from its handset: fakesmsc → bearerbox → smsbox → messaging's signed MO URL.
    execFileSync(KANNEL_SH, ['mo', phone.slice(1), 'Iptal lütfen'], { stdio: 'ignore' });
    for (const s of [a, b]) {
      const entries = await waitFor('the keyword opt-out', async () => {
        const d = (await optOuts(s.account.apiToken).list()).json.data as unknown[];
        return d.length > 0 ? d : undefined;
      });
      expect(entries).toEqual([{ phone: phone.slice(1), source: 'keyword', created_at: expect.any(String) }]);
    }
    expect((await optOuts(c.account.apiToken).list()).json.data).toEqual([]);
    // A reply that is no keyword changes nothing.
    const other = randomPhone();
    expect((await sms.share(a.account.apiToken, a.campaignId, { phone_numbers: [other] })).status).toBe(200);
    await waitFor('the SMS', async () => ((await sms.outbox(a.account.id, other)).data.length > 0 ? true : undefined));
    execFileSync(KANNEL_SH, ['mo', other.slice(1), 'Teşekkürler, stop değil'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await optOuts(a.account.apiToken).list(`?phone=${other.slice(1)}`)).json.data).toEqual([]);
  }, 90_000);
});
