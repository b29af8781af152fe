import { createLogger } from '@feedback/kit-core/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiToken } from '../src/accounts/domain/account.js';
import { startLinkThread, type FromLinkThread, type LinkThreadOptions } from '../src/links/link-thread.js';
import { MainThreadTokens } from '../src/links/main-thread-tokens.js';

// startLinkThread against a fixture worker (test/fixtures/link-thread.fixture.ts) in each of its modes.
const fixture = new URL('./fixtures/link-thread.fixture.ts', import.meta.url);
const start = (mode: string, opts: Partial<Pick<LinkThreadOptions, 'metricsTimeoutMs' | 'closeTimeoutMs' | 'tokens'>> = {}) => {
  process.env.LINK_THREAD_FIXTURE = mode; // a worker starts with a copy of the environment
  const crashes: Error[] = [];
  const lines: string[] = [];
  const thread = startLinkThread(fixture, {
    onCrash: (err) => crashes.push(err),
    log: (l) => lines.push(l),
    tokens: { findByHash: async () => null },
    ...opts,
  });
  return { crashes, lines, thread };
};
afterEach(() => {
  delete process.env.LINK_THREAD_FIXTURE;
});

describe('the link listener thread', () => {
  it('starts once listening, answers metrics, and closes when asked, its log lines written by the caller', async () => {
    const { thread, crashes, lines } = start('ok');
    const t = await thread;
    expect(t.port).toBe(4242);
    const [first, second] = await Promise.all([t.metrics(), t.metrics()]);
    expect(first![0]!.values[0]!.value).not.toBe(second![0]!.values[0]!.value); // each asker gets its own answer
    expect(first).toMatchObject([{ name: 'fixture_total', type: 'counter' }]);
    await t.close();
    await t.close(); // a second close is a no-op
    expect(await t.metrics()).toEqual([]);
    expect(crashes).toEqual([]);
    expect(lines).toEqual(['started\n', 'closing\n', 'closed\n']); // the last one posted just before the thread exited
  });

  it("answers the thread's token lookups from the main thread's repository: a token, none, or a failure (503 in the thread)", async () => {
    const token: ApiToken = { id: 't1', accountId: 'a1', kind: 'api', name: 'n', hash: 'known', createdAt: new Date(), revokedAt: null };
    const asked: string[] = [];
    const tokens = {
      findByHash: async (hash: string) => {
        asked.push(hash);
        if (hash === 'broken') throw new Error('the database is away');
        return hash === token.hash ? token : null;
      },
    };
    const { thread, lines, crashes } = start('tokens', { tokens });
    const t = await thread;
    for (const started = Date.now(); lines.length < 2 && Date.now() - started < 5_000;) await new Promise((r) => setTimeout(r, 20));
    expect(lines).toEqual(['started\n', 't1:api:true none failed:unavailable\n']);
    expect(asked.sort()).toEqual(['broken', 'known', 'unknown']);
    await t.close();
    expect(crashes).toEqual([]);
  });

  it('fails to start when the thread fails before listening', async () => {
    await expect(start('fail-start').thread).rejects.toThrow('EADDRINUSE');
  });

  it('reports a crash after start once', async () => {
    const { thread, crashes } = start('crash');
    await thread;
    for (const started = Date.now(); crashes.length === 0 && Date.now() - started < 5_000;) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    expect(crashes.map((e) => e.message)).toEqual(['boom in the link thread']);
  });

  it('leaves out the metrics of a thread that does not answer, and ends one that does not close', async () => {
    const { thread, crashes } = start('silent', { metricsTimeoutMs: 50, closeTimeoutMs: 200 });
    const t = await thread;
    expect(await t.metrics()).toEqual([]);
    const closing = Date.now();
    await t.close();
    expect(Date.now() - closing).toBeGreaterThanOrEqual(150);
    expect(crashes).toEqual([]);
  });
});

describe("the link thread's token lookups (MainThreadTokens)", () => {
  const logger = createLogger('gateway-test', 'silent');

  it('asks with one message per lookup and settles each by its id, in any order', async () => {
    const posted: FromLinkThread[] = [];
    const tokens = new MainThreadTokens((m) => posted.push(m), { timeoutMs: 1_000, logger });
    const first = tokens.findByHash('h1');
    const second = tokens.findByHash('h2');
    expect(posted).toEqual([
      { type: 'token', id: 0, hash: 'h1' },
      { type: 'token', id: 1, hash: 'h2' },
    ]);
    tokens.answer({ type: 'token', id: 1, token: null });
    tokens.answer({ type: 'token-failed', id: 0, error: 'the database is away' });
    await expect(second).resolves.toBeNull();
    await expect(first).rejects.toMatchObject({ kind: 'unavailable', code: 13009, message: 'Service temporarily unavailable' });
  });

  it('gives up with 503 when the main thread does not answer in time, and drops the late answer', async () => {
    const tokens = new MainThreadTokens(() => {}, { timeoutMs: 30, logger });
    await expect(tokens.findByHash('h1')).rejects.toMatchObject({ kind: 'unavailable' });
    expect(() => tokens.answer({ type: 'token', id: 0, token: null })).not.toThrow();
  });
});
