import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileClient } from './file-client.js';
import { encodedForm, untilAnswered } from './refused-upload.js';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

const sms = smsClient();
const files = fileClient();

/** A browser's same-origin request, with the session cookie once there is one. */
const headers = (cookie?: string): Record<string, string> => ({
  origin: new URL(sms.baseUrl).origin,
  ...(cookie ? { cookie } : {}),
});

// A member of a fresh account signs in to the console and uploads a CSV with one bad row through
// the upload page's form, into a directory bound to the account's campaign; the outcome page
// shows the refused row and why, as the file API does.
describe('console: uploading a CSV into a bound directory', { timeout: 90_000 }, () => {
  let s: Awaited<ReturnType<typeof sms.newCampaign>>;
  let directoryId: string;
  let cookie: string;

  beforeAll(async () => {
    s = await sms.newCampaign('Merhaba {{name}}: {{link}}');
    directoryId = await files.directory(s.account, 'console-imports');
    await sms.admin('POST', `/accounts/${s.account.id}/sms_campaigns/${s.campaignId}/directories`, { directory_id: directoryId });
    const email = `member-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'a long enough console secret';
    await sms.admin('POST', `/accounts/${s.account.id}/users`, { email, name: 'Member', role: 'member', password });
    const signIn = await fetch(`${sms.baseUrl}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
    });
    expect(signIn.status).toBe(303);
    cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('fs_session='))!
      .split(';')[0]!;
  });

  it('uploads through the page’s form and shows the refused row with its reason', async () => {
    const page = await fetch(`${sms.baseUrl}/console/uploads`, { headers: headers(cookie) });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('console-imports');
    // The form's hidden fields as the page gives them, in its order, then the file.
    const form = html.slice(
      html.indexOf('enctype="multipart/form-data"'),
      html.indexOf('</form>', html.indexOf('enctype="multipart/form-data"')),
    );
    const body = new FormData();
    for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) body.append(name!, value!);
    expect([...body.keys()]).toEqual(['_csrf', 'campaign', 'directory_id', 'filename']);
    const phone = randomPhone();
    body.append('file', new Blob([`phone_number,name\n${phone},Ayşe\nnot-a-phone,Nobody\n`], { type: 'text/csv' }), 'my-list.csv');
    const sent = await fetch(`${sms.baseUrl}/console/uploads`, { method: 'POST', redirect: 'manual', headers: headers(cookie), body });
    expect(sent.status, await sent.clone().text()).toBe(303);
    const outcomeUrl = sent.headers.get('location')!;
    expect(outcomeUrl).toMatch(new RegExp(`^/console/uploads/${directoryId}/files/[^/?]+$`));

    const outcome = await waitFor('the processed outcome', async () => {
      const res = await fetch(`${sms.baseUrl}${outcomeUrl}`, { headers: headers(cookie) });
      const text = await res.text();
      return res.status === 200 && !text.includes('http-equiv="refresh"') ? text : undefined;
    });
    expect(outcome).toContain('customers.csv');
    expect(outcome).toContain('Refused rows');
    expect(outcome).toContain('<td class="num">3</td><td>not_a_number</td>');
    expect(outcome).toMatch(/href="\/console\/sharings\/[^"]+"/);
    expect(outcome).not.toContain(phone);
  });

  it('refuses the form without the session’s CSRF token and stores nothing', async () => {
    const body = new FormData();
    body.append('_csrf', 'not-the-token');
    body.append('campaign', s.campaignId);
    body.append('directory_id', directoryId);
    body.append('filename', 'customers.csv');
    body.append('file', new Blob(['phone\n+905320000000\n'], { type: 'text/csv' }), 'x.csv');
    const listed = async () =>
      (await sms.request('GET', `/v2/file_service/directory/${directoryId}/files`, { headers: files.auth(s.account.apiToken) })).json;
    const before = await listed();
    const form = await encodedForm(body);
    const res = await untilAnswered(() =>
      fetch(`${sms.baseUrl}/console/uploads`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...headers(cookie), 'content-type': form.contentType },
        body: form.body,
      }),
    );
    expect(res.status).toBe(403);
    expect(await listed()).toEqual(before);
  });

  it('adds a phone to the opt-out list and finds it; reads the responses; a member gets no webhook page', async () => {
    const list = await (await fetch(`${sms.baseUrl}/console/opt-outs`, { headers: headers(cookie) })).text();
    const csrf = list.match(/name="_csrf" value="([^"]+)"/)![1]!;
    const phone = randomPhone();
    const added = await fetch(`${sms.baseUrl}/console/opt-outs`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...headers(cookie), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, phones: phone }).toString(),
    });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe('/console/opt-outs?added=1&already=0');
    const found = await fetch(`${sms.baseUrl}/console/opt-outs?phone=${encodeURIComponent(phone)}`, { headers: headers(cookie) });
    expect(await found.text()).toContain(`<th scope="row">${phone}</th>`);
    expect(
      (await fetch(`${sms.baseUrl}/console/responses?campaign=${s.campaignId}&from=2026-01-01&to=2026-12-31`, { headers: headers(cookie) }))
        .status,
    ).toBe(200);
    expect((await fetch(`${sms.baseUrl}/console/webhooks`, { headers: headers(cookie) })).status).toBe(403);
  });
});
