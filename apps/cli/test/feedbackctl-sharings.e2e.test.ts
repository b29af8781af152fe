import { randomInt } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T = Record<string, unknown>>(p: ReturnType<typeof cli>) => JSON.parse((await p).stdout) as T;
const randomPhone = () => `+90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

type Page = { data: Array<Record<string, unknown>>; next_page_token: string | null };

// feedbackctl sharings list and campaigns list (paged) against the running stack.
describe('feedbackctl sharings and campaigns lists', () => {
  it("lists an account's sharings newest first, of one campaign or status, a page at a time; a bad status is the API refusing it", async () => {
    const seeded = await json<Record<string, string>>(cli('seed'));
    const { base_url } = readStackFile();
    const share = async (body: Record<string, unknown>) => {
      const res = await fetch(`${base_url}/v1/sms_campaigns/${seeded.sms_campaign_id}/sms_sharings`, {
        method: 'POST',
        headers: { authorization: `Token token=${seeded.api_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ phone_numbers: [randomPhone()], ...body }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: string }).id;
    };
    const first = await share({});
    const later = await share({ send_at: new Date(Date.now() + 86_400_000).toISOString() });
    const account = ['--account', seeded.account_id!];

    const all = await json<Page>(cli('sharings', 'list', ...account, '--campaign', seeded.sms_campaign_id!));
    expect(all.data.map((s) => s.id)).toEqual([later, first]);
    expect(all.data[0]).toMatchObject({ campaign_id: seeded.sms_campaign_id, status: 'scheduled', accepted: 1 });
    const page = await json<Page>(cli('sharings', 'list', ...account, '--page-size', '1'));
    expect(page.data.map((s) => s.id)).toEqual([later]);
    const next = await json<Page>(cli('sharings', 'list', ...account, '--page-token', page.next_page_token!));
    expect(next.data.map((s) => s.id)).toEqual([first]);
    const scheduled = await json<Page>(cli('sharings', 'list', ...account, '--status', 'scheduled'));
    expect(scheduled.data.map((s) => s.id)).toEqual([later]);

    const refused = await failure(cli('sharings', 'list', ...account, '--status', 'done'));
    expect(refused.code).toBe(1);
    expect(apiError(refused.stderr).body).toMatchObject({ code: 13000, errors: { status: expect.any(String) } });

    const campaigns = await json<Page>(cli('campaigns', 'list', ...account, '--page-size', '1'));
    expect(campaigns.data.map((c) => c.id)).toEqual([seeded.sms_campaign_id]);
    expect(campaigns.next_page_token).toBeNull();
  });
});
