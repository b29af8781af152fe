import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T = Record<string, unknown>>(p: ReturnType<typeof cli>) => JSON.parse((await p).stdout) as T;

type Erasure = { id: string; status: string; completed_at: string | null; counts: Record<string, number> };

// feedbackctl erasures against the running stack: an operator erases a person in an account and
// follows the request until every service has reported.
describe('feedbackctl erasures', () => {
  it('requests an erasure by phone, reads it until completed; no identifier and an unknown id are the API refusing them', async () => {
    const seeded = await json<Record<string, string>>(cli('seed'));
    const account = seeded.account_id!;
    const requested = await json<Erasure>(cli('erasures', 'request', '--account', account, '--phone', '+90 532 000 00 01'));
    expect(requested).toMatchObject({ status: 'pending', completed_at: null });

    const end = Date.now() + 30_000;
    let got = requested;
    while (got.status !== 'completed' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 300));
      got = await json<Erasure>(cli('erasures', 'get', '--account', account, '--id', requested.id));
    }
    expect(got).toMatchObject({ id: requested.id, status: 'completed', completed_at: expect.any(String) });
    expect(Object.keys(got.counts).sort()).toEqual(['customers', 'links', 'messages', 'opt_outs_kept', 'responses', 'webhook_deliveries']);

    const none = await failure(cli('erasures', 'request', '--account', account));
    expect(apiError(none.stderr).body).toMatchObject({ code: 13000, errors: { phone_number: expect.any(String) } });
    const unknown = await failure(cli('erasures', 'get', '--account', account, '--id', '00000000-0000-4000-8000-000000000000'));
    expect(apiError(unknown.stderr).body).toMatchObject({
      code: 13002,
      errors: { data_erasure_id: '00000000-0000-4000-8000-000000000000' },
    });
  }, 60_000);
});
