import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readStackFile } from '@feedback/dev-stack';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T = Record<string, unknown>>(p: ReturnType<typeof cli>) => JSON.parse((await p).stdout) as T;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

type Endpoint = { id: string; enabled: boolean; disabled_reason?: string | null };
type Page<T> = { data: T[]; next_page_token: string | null };
type Delivery = { id: string; webhook_id: string; attempts: { status_code: number }[] };

// feedbackctl webhooks against the running stack: an operator finds the endpoint the service
// disabled (its receiver answered 410 Gone), reads why in the delivery log, turns it on again and
// replays the delivery, which then arrives with its webhook-id.
describe('feedbackctl webhooks', () => {
  it('lists, reads the delivery log, enables after a 410 and replays; an unknown endpoint is the API refusing it', async () => {
    let gone = true;
    const seen: string[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(String(req.headers['webhook-id']));
        res.writeHead(gone ? 410 : 204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const seeded = await json<Record<string, string>>(cli('seed'));
      const account = seeded.account_id!;
      const { base_url } = readStackFile();
      const api = (method: string, path: string, body?: unknown) =>
        fetch(`${base_url}${path}`, {
          method,
          headers: {
            authorization: `Token token=${seeded.api_token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const created = await api('POST', '/v1/webhook_endpoints', {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
        events: ['survey.answered'],
      });
      expect(created.status).toBe(201);
      const { endpoint } = (await created.json()) as { endpoint: Endpoint };
      expect((await api('POST', `/v1/webhook_endpoints/${endpoint.id}/test`)).status).toBe(202);

      const list = () => json<Page<Endpoint>>(cli('webhooks', 'list', '--account', account));
      const disabled = await until('the endpoint disabled by its 410', async () => {
        const found = (await list()).data.find((e) => e.id === endpoint.id);
        return found && !found.enabled ? found : undefined;
      });
      expect(disabled.disabled_reason).toMatch(/410/);
      const log = await json<Page<Delivery>>(cli('webhooks', 'deliveries', '--account', account, '--endpoint', endpoint.id));
      expect(log.data).toHaveLength(1);
      expect(log.data[0]!.attempts.map((a) => a.status_code)).toEqual([410]);

      gone = false;
      const enabled = await json<{ endpoint: Endpoint }>(cli('webhooks', 'enable', '--account', account, '--endpoint', endpoint.id));
      expect(enabled.endpoint).toMatchObject({ enabled: true, disabled_reason: null });
      await json(cli('webhooks', 'replay', '--account', account, '--endpoint', endpoint.id, '--delivery', log.data[0]!.id));
      await until('the replayed delivery answered 204', async () => {
        const again = await json<Page<Delivery>>(cli('webhooks', 'deliveries', '--account', account, '--endpoint', endpoint.id));
        return again.data[0]!.attempts.some((a) => a.status_code === 204) ? true : undefined;
      });
      // The replay is the same delivery: the receiver saw one webhook-id twice.
      expect(new Set(seen).size).toBe(1);
      expect(seen.length).toBeGreaterThanOrEqual(2);

      const off = await json<{ endpoint: Endpoint }>(cli('webhooks', 'disable', '--account', account, '--endpoint', endpoint.id));
      expect(off.endpoint.enabled).toBe(false);
      const unknown = await failure(cli('webhooks', 'enable', '--account', account, '--endpoint', '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a'));
      expect(apiError(unknown.stderr).body).toMatchObject({ code: 13002 });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
