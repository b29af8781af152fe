import { randomInt } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call } from './api.js';
import { receiver, verifyAll } from './receiver.js';
import { waitFor } from './stack.js';

// A CSV upload's outcome over HTTP against the running stack, as an integrator sees it: the file
// entry's `processing` (the file service, told by messaging's CSV workflow) and one `file.processed`
// webhook per file, checked with the Standard Webhooks library by a receiver on 127.0.0.1.

interface Processing {
  status: string;
  sharing_id: string | null;
  rows: number;
  accepted: number;
  rejected: number;
  errors: { row: number; reason: string }[];
  reason: string | null;
  processed_at: string | null;
}

const base = readStackFile().base_url!;
/** A valid Turkish mobile number nobody else's test uses. */
const randomPhone = () => `+90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

async function upload(token: string, directoryId: string, text: string, filename = 'customers.csv') {
  const form = new FormData();
  form.append('filename', filename);
  form.append('file', new Blob([text], { type: 'text/csv' }), filename);
  const res = await fetch(`${base}/v2/file_service/directory/${directoryId}/files`, {
    method: 'POST',
    headers: { authorization: `Token token=${token}` },
    body: form,
  });
  const json = (await res.json()) as { data: { id: string; processing: Processing | null } };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.data;
}

describe('file.processed end to end', () => {
  const rx = receiver();
  let origin: string;

  beforeAll(async () => {
    origin = await rx.start();
  });
  afterAll(() => rx.close());

  it('a bound directory: the entry shows pending, then the counts, the sharing and the bad rows; a bad header fails; one webhook each', async () => {
    const account = await admin('POST', '/accounts', { name: 'file.processed e2e' });
    const token = (await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'api', name: 'api' })).token as string;
    const node = await admin('POST', `/accounts/${account.id}/nodes`, { name: 'store' });
    const flow = await admin('POST', `/accounts/${account.id}/flows`, {
      name: 'Visit',
      questions: [{ key: 'nps', body: { en: 'Recommend us?' }, style: 'nps' }],
    });
    const campaign = await admin('POST', `/accounts/${account.id}/sms_campaigns`, {
      name: 'After visit',
      node_id: node.id,
      flow_id: flow.id,
      message_template: 'Hello {{name}} {{link}}',
    });
    const ep = await call('POST', '/v1/webhook_endpoints', {
      token,
      body: { url: `${origin}/files`, events: ['file.processed'], description: 'e2e' },
    });
    expect(ep.status, ep.text).toBe(201);
    const dir = await call('POST', `/v2/file_service/${account.id}/directories`, { token, body: { name: 'sms-recipients' } });
    expect(dir.status, dir.text).toBe(201);
    const directoryId = dir.json.data.id as string;
    await admin('POST', `/accounts/${account.id}/sms_campaigns/${campaign.id}/directories`, { directory_id: directoryId });
    // A file of a name no binding processes shows none.
    expect((await upload(token, directoryId, 'phone\n', 'other.csv')).processing).toBeNull();

    const [ayse, can] = [randomPhone(), randomPhone()];
    const good = await upload(
      token,
      directoryId,
      `phone,name\n${ayse},Ayşe\n${can},Can\n05-not-a-phone,Nobody\n${randomPhone()},Too,Many\n`,
    );
    expect(good.processing).toMatchObject({ status: 'pending', sharing_id: null, errors: [], processed_at: null });

    const entry = async (id: string) => {
      const res = await call('GET', `/v2/file_service/directory/${directoryId}/files/${id}`, { token });
      expect(res.status, res.text).toBe(200);
      return res.json.data.processing as Processing;
    };
    let processed: Processing | undefined;
    await waitFor('the file processed', async () => (processed = await entry(good.id)).status !== 'pending', 60_000);
    expect(processed).toEqual({
      status: 'processed',
      sharing_id: expect.any(String),
      rows: 4,
      accepted: 2,
      rejected: 2,
      errors: [
        { row: 4, reason: expect.any(String) },
        { row: 5, reason: 'wrong_column_count: expected 2, got 3' },
      ],
      reason: null,
      processed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
    });
    // Reasons name the rule, never the cell.
    expect(processed!.errors[0]!.reason).not.toMatch(/not-a-phone|Nobody/);
    // The sharing exists, is the campaign's, and took the accepted rows.
    const sharing = await call('GET', `/v1/sms_sharings/${processed!.sharing_id}`, { token });
    expect(sharing.status, sharing.text).toBe(200);
    expect(sharing.json).toMatchObject({ campaign_id: campaign.id, accepted: 2, rejected: 2 });
    // The list route shows the same.
    const list = await call('GET', `/v2/file_service/directory/${directoryId}/files`, { token });
    const listed = (list.json.data as { id: string; processing: Processing | null }[]).find((f) => f.id === good.id);
    expect(listed?.processing).toEqual(processed);

    // No phone column: the whole file is refused, with the reason.
    const bad = await upload(token, directoryId, 'name,email\nAyşe,ayse@example.com\n');
    let failed: Processing | undefined;
    await waitFor('the bad file failed', async () => (failed = await entry(bad.id)).status !== 'pending', 60_000);
    expect(failed).toMatchObject({
      status: 'failed',
      sharing_id: null,
      rows: 0,
      accepted: 0,
      errors: [],
      reason: expect.stringMatching(/no phone column/),
    });

    // One file.processed per file, signed, carrying the entry's processing.
    await waitFor('both file.processed deliveries', () => rx.at('/files').length >= 2, 60_000);
    const events = verifyAll(rx.at('/files'), ep.json.secret as string);
    const byFile = (id: string) => events.filter((e) => e.data.file_id === id);
    expect(byFile(good.id)).toHaveLength(1);
    expect(byFile(good.id)[0]).toMatchObject({
      type: 'file.processed',
      data: { directory_id: directoryId, directory: 'sms-recipients', filename: 'customers.csv', processing: processed },
    });
    expect(byFile(bad.id)[0]?.data.processing).toEqual(failed);
    const log = await call('GET', `/v1/webhook_endpoints/${ep.json.endpoint.id}/deliveries`, { token });
    expect((log.json.data as { event_id: string }[]).map((d) => d.event_id).sort()).toEqual(
      [`file.processed:${good.id}`, `file.processed:${bad.id}`].sort(),
    );
  });
});
