import { randomInt } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T = Record<string, unknown>>(p: ReturnType<typeof cli>) => JSON.parse((await p).stdout) as T;
const randomPhone = () => `+90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

type Page = { data: Array<Record<string, unknown>>; next_page_token: string | null };

// feedbackctl sms-messages and responses against the running stack, after what a customer does.
describe('feedbackctl sms-messages and responses', () => {
  it("lists the SMS an account's sharing sent to one phone", async () => {
    const seeded = await json<Record<string, string>>(cli('seed'));
    const { base_url } = readStackFile();
    const [mine, other] = [randomPhone(), randomPhone()];
    const sharing = await fetch(`${base_url}/v1/sms_campaigns/${seeded.sms_campaign_id}/sms_sharings`, {
      method: 'POST',
      headers: { authorization: `Token token=${seeded.api_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone_numbers: [mine, other] }),
    });
    expect(sharing.status).toBe(200);
    const list = (phone: string) => json<Page>(cli('sms-messages', 'list', '--account', seeded.account_id!, '--phone', phone));
    const page = await until('the SMS in the outbox', async () => {
      const p = await list(mine!);
      return p.data.length > 0 ? p : undefined;
    });
    // The outbox records a number as the provider gets it: E.164 digits without the plus.
    const digits = (phone: string) => phone.replace(/^\+/, '');
    expect(page.data).toEqual([expect.objectContaining({ phone: digits(mine!), text: expect.stringContaining('Merhaba') })]);
    expect(page.next_page_token).toBeNull();
    // The other phone's SMS is the other one, and without --phone both are listed.
    await until('the other SMS', async () => ((await list(other!)).data.length === 1 ? true : undefined));
    const all = await json<Page>(cli('sms-messages', 'list', '--account', seeded.account_id!, '--page-size', '10'));
    expect(all.data.map((m) => m.phone).sort()).toEqual([digits(mine!), digits(other!)].sort());
  });

  it('lists the answers customers gave, of one flow or time, and their NPS; a bad page size is the API refusing it', async () => {
    const seeded = await json<Record<string, string>>(cli('seed'));
    const link = seeded.survey_link!;
    const answer = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(link).origin },
      body: 'n.nps=9&o.liked_most=staff&t.comment=from%20the%20cli%20test',
    });
    expect(answer.status).toBe(200);
    const page = await json<Page>(cli('responses', 'list', '--account', seeded.account_id!, '--flow', seeded.flow_id!));
    expect(page.data).toEqual([
      expect.objectContaining({
        flow_id: seeded.flow_id,
        channel_id: seeded.channel_id,
        node_id: seeded.node_id,
        answers: expect.objectContaining({ nps: 9 }),
      }),
    ]);
    expect(page.next_page_token).toBeNull();
    const later = await json<Page>(cli('responses', 'list', '--account', seeded.account_id!, '--since', '2100-01-01'));
    expect(later.data).toEqual([]);
    const nps = await json<{ questions: unknown[] }>(cli('responses', 'nps', '--account', seeded.account_id!, '--flow', seeded.flow_id!));
    expect(nps.questions).toEqual([{ question_key: 'nps', promoters: 1, passives: 0, detractors: 0, total: 1, score: 100 }]);

    const bad = await failure(cli('responses', 'list', '--account', seeded.account_id!, '--page-size', '500'));
    expect(bad.code).toBe(1);
    const { line, body } = apiError(bad.stderr);
    expect(line).toMatch(new RegExp(`^GET /admin/v1/accounts/${seeded.account_id}/responses failed: 400 Bad Request, code 13000: `));
    expect(Object.keys(body.errors as object)).toEqual([expect.stringContaining('page_size')]);
  });
});
