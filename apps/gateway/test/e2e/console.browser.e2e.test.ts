import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startSmsOperator } from '@feedback/dev-stack';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileClient } from './file-client.js';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

// The console as a person uses it, in Debian's chromium driven by playwright-core (no browser
// download; REQUIRE_BROWSER=1 or CI=true make a missing browser a failure, as the survey page's
// browser test does). Every page visited is checked with axe-core (no serious or critical
// violation) and the main pages are kept as screenshots at 390 and 1280 px.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const browserRequired = process.env.CI === 'true' || process.env.REQUIRE_BROWSER === '1';
if (!hasChromium && !browserRequired) console.warn(`console browser test SKIPPED: ${CHROMIUM} is absent (apt-get install chromium)`);

const SHOTS = fileURLToPath(new URL('../../../../.local/screenshots/', import.meta.url));
const PASSWORD = 'a long enough console secret';
const sms = smsClient();
const files = fileClient();
const email = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.com`;

/** A webhook receiver: counts each delivery by its webhook-id (a replay sends the same id again). */
function webhookReceiver() {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  return {
    seen,
    start: async () => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** axe-core's serious and critical violations on the page as it is now; every page's counts are printed. */
const audits: string[] = [];
async function audit(page: Page, name: string) {
  await page.evaluate(axe.source);
  const { violations } = await page.evaluate<axe.AxeResults>("axe.run(document, { resultTypes: ['violations'] })");
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  audits.push(`${name}: ${violations.length} violations, ${bad.length} serious or critical`);
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe on ${name}`,
  ).toEqual([]);
}

/** Errors a page wrote to the browser's console (a style sheet or script the CSP refused, a failed load). */
const browserErrors: string[] = [];
const watch = (ctx: BrowserContext) => {
  ctx.on('console', (m) => m.type() === 'error' && browserErrors.push(`${m.text()} ${m.location().url}`));
  ctx.on('response', (r) => r.status() === 404 && browserErrors.push(`404 ${r.url()}`));
};

/** The page at 390 and at 1280 px, whole; nothing wider than the phone, and axe-core on the phone's layout too. */
async function shoot(page: Page, name: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  // Again on the phone: a table that scrolls sideways there must be reachable by keyboard.
  await audit(page, `${name} at 390 px`);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${name} at 390 px`).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}console-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}console-${name}-1280.png`, fullPage: true });
}

/** Reloads until the probe holds (the figures come from reports and relays that follow within seconds). */
async function reloadUntil(page: Page, what: string, probe: () => Promise<boolean>) {
  await waitFor(what, async () => {
    if (await probe()) return true;
    await page.reload();
    return undefined;
  }).catch(async (err: Error) => {
    throw new Error(`${err.message}; the page: ${await page.locator('main').innerText()}`);
  });
}

describe.skipIf(!hasChromium && !browserRequired)('the console in a real browser', { timeout: 90_000 }, () => {
  let browser: Browser;
  let owner: BrowserContext;
  let operator: Awaited<ReturnType<typeof startSmsOperator>>;
  const rx = webhookReceiver();
  let s: Awaited<ReturnType<typeof sms.newCampaign>>;
  let sharingId: string;
  const [ok1, ok2, failing] = [randomPhone(), randomPhone(), randomPhone()];
  const ownerEmail = email('owner');
  const operatorEmail = email('operator');

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`${CHROMIUM} is absent, and this run requires the browser (apt-get install chromium)`);
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    // The operator is given the number without its plus, as the generic provider sends it.
    operator = await startSmsOperator(new Set([failing.slice(1)]));
    const origin = await rx.start();

    s = await sms.newCampaign('Merhaba {{link}}');
    const accountId = s.account.id;
    await sms.admin('PUT', `/accounts/${accountId}/sms_provider`, operator.providerSettings());
    const ep = await sms.request('POST', '/v1/webhook_endpoints', {
      headers: { authorization: `Token token=${s.account.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${origin}/console`, events: ['sms.delivered', 'sms.failed'], description: 'browser e2e' }),
    });
    expect(ep.status, ep.text).toBe(201);
    const shared = await sms.share(s.account.apiToken, s.campaignId, { phone_numbers: [ok1, ok2, failing] });
    expect(shared.status, shared.text).toBe(200);
    sharingId = shared.json.id as string;
    const directoryId = await files.directory(s.account, 'console-imports');
    await sms.admin('POST', `/accounts/${accountId}/sms_campaigns/${s.campaignId}/directories`, { directory_id: directoryId });
    await sms.admin('POST', `/accounts/${accountId}/users`, { email: ownerEmail, name: 'Owner', role: 'owner', password: PASSWORD });
    await sms.admin('POST', '/operators', { email: operatorEmail, name: 'Operator', password: PASSWORD });
    await waitFor('three delivery reports', async () => (operator.reports() >= 3 ? true : undefined));
  }, 60_000);

  afterAll(async () => {
    console.log(`console axe-core: ${audits.join('; ')}`);
    await browser?.close();
    await operator?.close();
    await rx.close();
  });

  it('keyboard only: the owner signs in and opens the campaign; its figures, chart and table agree', async () => {
    owner = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    watch(owner);
    const page = await owner.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${sms.baseUrl}/console/sign-in`);
    await audit(page, 'sign-in');
    // The e-mail field has the focus; Tab to the password, Enter submits.
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('email');
    await page.keyboard.type(ownerEmail);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await Promise.all([page.waitForURL(/\/console\/$/), page.keyboard.press('Enter')]);
    await audit(page, 'campaigns');
    await shoot(page, 'campaigns');

    // Tab to the campaign's link as a keyboard user does, then Enter.
    let tabs = 0;
    while ((await page.evaluate<string | null | undefined>('document.activeElement?.textContent')) !== 'After-visit SMS') {
      expect(++tabs, 'tabs to reach the campaign').toBeLessThan(30);
      await page.keyboard.press('Tab');
    }
    // The focus is visible where the keyboard is.
    expect(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    await Promise.all([page.waitForURL(/\/console\/campaigns\//), page.keyboard.press('Enter')]);
    const figure = (label: string) => page.locator('ol.funnel li', { has: page.locator('.label', { hasText: label }) }).locator('.n');
    // The sharing's row: accepted 3, sent 3, delivered 2, failed 1, clicked 0, answered 0 (its
    // counters and the report follow the delivery reports each on its own: wait for both).
    const row = page.locator(`tr:has(a[href*="/console/sharings/${sharingId}"])`);
    const rowFigures = ['3', '3', '2', '1', '0', '0'];
    await reloadUntil(page, 'the campaign counting the delivery reports', async () => {
      return (
        (await figure('Sent').textContent()) === '3' &&
        (await figure('Delivered').textContent()) === '2' &&
        JSON.stringify(await row.locator('td.num').allTextContents()) === JSON.stringify(rowFigures)
      );
    });
    // The chart, and the table beneath with the same figures.
    expect(await page.locator('svg.chart[role="img"]').count()).toBe(1);
    const column = async (n: number) =>
      (await page.locator(`table:has(caption) tbody tr td:nth-child(${n})`).allTextContents()).reduce((a, v) => a + Number(v), 0);
    expect([await column(2), await column(3)]).toEqual([3, 2]);
    await audit(page, 'campaign');
    await shoot(page, 'campaign');
  });

  it('the owner filters the sharing by failed, uploads a CSV with a bad row, and replays a webhook delivery', async () => {
    const page = await owner.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${sms.baseUrl}/console/campaigns/${s.campaignId}`);
    await Promise.all([page.waitForURL(/\/console\/sharings\//), page.click(`a[href*="/console/sharings/${sharingId}"]`)]);
    await audit(page, 'sharing');
    await page.selectOption('#status', 'failed');
    await Promise.all([page.waitForURL(/status=failed/), page.getByRole('button', { name: 'Filter' }).click()]);
    const rows = page.locator('table tbody tr');
    expect(await rows.count(), await page.locator('main').innerText()).toBe(1);
    expect(await rows.locator('th').textContent()).toBe(failing);
    expect(await rows.textContent()).toContain('EC_ABSENT_SUBSCRIBER');
    await audit(page, 'sharing filtered');
    await shoot(page, 'sharing-failed');

    await page.getByRole('link', { name: 'Uploads' }).click();
    await audit(page, 'uploads');
    await page.setInputFiles('input[type="file"]', {
      name: 'my-list.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`phone_number,name\n${randomPhone()},Ayşe\nnot-a-phone,Nobody\n`),
    });
    await Promise.all([page.waitForURL(/\/console\/uploads\/[^/]+\/files\//), page.getByRole('button', { name: 'Upload' }).click()]);
    await reloadUntil(page, 'the upload processed', async () => (await page.locator('meta[http-equiv="refresh"]').count()) === 0);
    const refused = page.locator('table', { has: page.locator('caption', { hasText: 'Refused rows' }) }).locator('tbody tr');
    expect(await refused.count()).toBe(1);
    expect(await refused.locator('td').allTextContents()).toEqual(['3', 'not_a_number']);
    await audit(page, 'upload outcome');
    await shoot(page, 'upload-outcome');

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await audit(page, 'webhooks');
    await page.locator('a[href^="/console/webhooks/"]').first().click();
    await reloadUntil(page, 'three deliveries', async () => (await page.getByRole('button', { name: 'Send again' }).count()) >= 3);
    await audit(page, 'webhook deliveries');
    await shoot(page, 'webhook-delivery');
    // The first delivery's replay: its form names the delivery, whose webhook-id (msg_ and its id
    // without dashes) the receiver saw, at least once (a receiver dedupes by it); then once more.
    const replay = page.locator('form[action$="/replay"]').first();
    const deliveryId = decodeURIComponent(/\/deliveries\/([^/]+)\/replay$/.exec((await replay.getAttribute('action'))!)![1]!);
    const webhookId = `msg_${deliveryId.replaceAll('-', '')}`;
    await waitFor('the delivery at the receiver', async () => (rx.seen.has(webhookId) ? true : undefined));
    const before = rx.seen.get(webhookId)!;
    await Promise.all([page.waitForURL(/replayed=1/), replay.getByRole('button', { name: 'Send again' }).click()]);
    expect(await page.getByRole('status').textContent()).toBe('The delivery will be sent again.');
    await audit(page, 'webhook replayed');
    await waitFor('the replayed delivery at the receiver', async () => (rx.seen.get(webhookId)! > before ? true : undefined));
  });

  it('the operator lowers the account’s tier: sharings get 429 within 5 s; removing it admits them again', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    watch(ctx);
    const page = await ctx.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${sms.baseUrl}/console/sign-in`);
    await page.fill('#email', operatorEmail);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(/\/console\/$/), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.getByRole('link', { name: 'SMS limits' }).click();
    await audit(page, 'SMS limits');
    await page.fill('#account', s.account.id);
    await Promise.all([page.waitForURL(/account=/), page.getByRole('button', { name: 'Open' }).click()]);
    await audit(page, 'SMS limits of an account');
    await page.check('form[action="/console/sms-limits/account"] input[name="enabled"]');
    await page.fill('#a-tier0-name', 'tight');
    await page.fill('#a-tier0-limit', '1');
    await page.fill('#a-tier0-window', '60');
    await Promise.all([page.waitForURL(/saved/), page.getByRole('button', { name: 'Save the account’s limits' }).click()]);
    await audit(page, 'SMS limits saved');
    await shoot(page, 'sms-limits');

    const share = () => sms.share(s.account.apiToken, s.campaignId, { phone_numbers: [randomPhone()] });
    const until = async (status: number) => {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const r = await share();
        if (r.status === status || Date.now() > deadline) return r;
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    expect((await until(429)).status).toBe(429);

    const remove = page.getByRole('button', { name: 'Remove the account’s own limits' });
    await remove.click();
    // The page again, without the button: the account has no limits of its own.
    await expect.poll(() => remove.count()).toBe(0);
    expect((await until(200)).status).toBe(200);
    await ctx.close();
    expect(browserErrors).toEqual([]);
  });
});
